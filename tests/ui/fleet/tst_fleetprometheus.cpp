// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Fleet view on a real Prometheus at scale (256 hosts x 8 GPUs, offscreen): one model
// update per refresh, grouped by a target label, sorted, filtered, a host whose exporters go
// down shown stale (never zero), the drill-down's 24 h charts from query_range, its "Live SSH
// stream" button (a mapped host connects; a Prometheus-only host becomes a saved profile), and
// rollout dialogs over real sshd instances: a plan that differs, a deployment recipe.
#include "core/fleet/fleetsource.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/hosts/hostprofilestore.h"
#include "core/ssh/sshhostconnection.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"
#include "tests/support/promfixture.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"
#include "ui/fleet/fleettiles.h"
#include "ui/fleet/fleetview.h"
#include "ui/fleet/hostdetaildialog.h"
#include "ui/fleet/rolloutdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::fleet;

namespace {
constexpr int kHosts = 256;
}

class TestFleetPrometheus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void tilesAtScaleGroupedSortedFiltered();
    void downHostIsStaleNotZero();
    void drillDownCharts();
    void rolloutDialogRowsAndADifferentPlan();
    void rolloutDialogRecipe();
    void rolloutDialogPromote();
    void liveSshStreamAndAProfileFromPrometheus();

private:
    std::shared_ptr<PromClient> client() const;
    std::unique_ptr<test::PrometheusFixture> m_prom;
    std::unique_ptr<FleetView> m_view;
    QTemporaryDir m_state;
};

std::shared_ptr<PromClient> TestFleetPrometheus::client() const
{
    return std::make_shared<PromClient>(std::make_shared<LocalTransport>(), PromEndpoint::parse(m_prom->url()).value());
}

void TestFleetPrometheus::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qunsetenv("SSH_AUTH_SOCK");
    store::setDatabasePath(m_state.filePath(QStringLiteral("history.sqlite")));
    if (!test::PrometheusFixture::available())
        QFAIL("/usr/bin/prometheus is missing: scripts/bootstrap installs Debian's prometheus package");
    test::PrometheusFixture::Options o;
    o.hosts = kHosts;
    o.scrapeIntervalS = 2;
    o.racks = 4;
    m_prom = std::make_unique<test::PrometheusFixture>(o);
    const auto started = m_prom->start();
    QVERIFY2(started, qPrintable(started.error() + u'\n' + m_prom->prometheusLog()));
    AppContext ctx; // no session hosts: the fleet comes from Prometheus alone
    m_view = std::make_unique<FleetView>(ctx);
    m_view->resize(1500, 950);
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    m_view->showPrometheus(client(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(m_view->tileCount() == kHosts, 60000);
}

void TestFleetPrometheus::cleanupTestCase()
{
    m_view.reset();
    if (m_prom)
        m_prom->stop();
}

void TestFleetPrometheus::tilesAtScaleGroupedSortedFiltered()
{
    // One model update per refresh, whatever the number of hosts.
    QSignalSpy refreshed(m_view->prometheusSource(), &FleetSource::snapshotReady);
    const int before = m_view->updates();
    QVERIFY(refreshed.wait(30000));
    QCOMPARE(m_view->updates() - before, int(refreshed.size()));
    QCOMPARE(m_view->fleetHosts().size(), kHosts);
    QVERIFY2(m_view->tileText(QStringLiteral("gpu-node-004")).contains(QStringLiteral("Xid 79")),
        qPrintable(m_view->tileText(QStringLiteral("gpu-node-004"))));
    QVERIFY(m_view->tileText(QStringLiteral("gpu-node-010")).contains(QStringLiteral("8 × NVIDIA H100 80GB HBM3")));

    m_view->setArrangement(QStringLiteral("rack"), FleetSort::Hottest, FleetFilter::All);
    const QList<int> order = m_view->tiles()->displayOrder();
    QCOMPARE(order.size(), kHosts);
    const auto& hosts = m_view->tiles()->hosts();
    QCOMPARE(hosts.at(order.first()).labels.value(QStringLiteral("rack")), "rack-1");
    QCOMPARE(hosts.at(order.first()).hottestC(), 91.0); // rack-1's hottest first (host 7: GPU 3 at 91 C)
    QCOMPARE(hosts.at(order.last()).labels.value(QStringLiteral("rack")), "rack-4");
    QElapsedTimer t;
    t.start();
    const QImage shot = m_view->grab().toImage();
    qInfo("256 tiles: grab %lld ms, tile paint %.2f ms", t.elapsed(), m_view->tiles()->lastPaintMs());
    QVERIFY(shot.save(test::screenshotPath(QStringLiteral("fleet-prometheus-256"))));

    m_view->setArrangement({}, FleetSort::Name, FleetFilter::Throttling);
    QCOMPARE(m_view->tileCount(), (kHosts - 3 + 16) / 17);
    m_view->setArrangement({}, FleetSort::Name, FleetFilter::Xid);
    QCOMPARE(m_view->tileCount(), (kHosts - 4 + 18) / 19);
    m_view->setArrangement({}, FleetSort::Name, FleetFilter::MemoryFull);
    QCOMPARE(m_view->tileCount(), (kHosts - 5 + 22) / 23);
    m_view->setArrangement({}, FleetSort::Name, FleetFilter::All);
}

void TestFleetPrometheus::downHostIsStaleNotZero()
{
    QVERIFY(m_prom->setHostDown(9, true));
    QTRY_VERIFY_WITH_TIMEOUT(
        m_view->tileText(QStringLiteral("gpu-node-009")).contains(QStringLiteral("stale: target")), 60000);
    const QString text = m_view->tileText(QStringLiteral("gpu-node-009"));
    QVERIFY2(text.contains(QStringLiteral("8 × NVIDIA H100")) && !text.contains(QStringLiteral("util 0 %")),
        qPrintable(text));
    m_view->setArrangement({}, FleetSort::Name, FleetFilter::Stale);
    QCOMPARE(m_view->tileCount(), 1);
    m_view->setArrangement({}, FleetSort::Stale, FleetFilter::All);
    QVERIFY(m_view->grab().save(test::screenshotPath(QStringLiteral("fleet-prometheus-stale"))));
    QVERIFY(m_prom->setHostDown(9, false));
    QTRY_VERIFY_WITH_TIMEOUT(
        !m_view->tileText(QStringLiteral("gpu-node-009")).contains(QStringLiteral("stale")), 60000);
    m_view->setArrangement({}, FleetSort::Name, FleetFilter::All);
}

void TestFleetPrometheus::drillDownCharts()
{
    FleetHost host;
    for (const FleetHost& h : m_view->fleetHosts())
        if (h.name == u"gpu-node-007")
            host = h;
    QVERIFY(!host.instances.isEmpty());
    // The 24 h charts query at an 8 s step: a line needs Prometheus to have scraped for two
    // steps, which depends on how long the tests before this one took. Open the dialog again
    // until it has lines, not points (bounded).
    std::unique_ptr<HostDetailDialog> dialog;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            dialog = std::make_unique<HostDetailDialog>(host, client(), 2);
            dialog->show();
            QSignalSpy ready(dialog.get(), &HostDetailDialog::chartsReady);
            return ready.wait(60000) && dialog->charts().size() == 5 && dialog->charts().at(0)->pointCount() > 8;
        }(),
        90000);
    QCOMPARE(dialog->charts().at(0)->seriesCount(), 8); // one line per GPU
    QCOMPARE(dialog->charts().at(4)->seriesCount(), 0); // no server on this host
    QVERIFY(dialog->grab().save(test::screenshotPath(QStringLiteral("fleet-host-detail"))));
}

void TestFleetPrometheus::rolloutDialogRowsAndADifferentPlan()
{
    KF_START_DEMO_HOST(a);
    KF_START_DEMO_HOST(b);
    {
        QFile f(b.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt"));
        QVERIFY(f.open(QIODevice::Append));
        f.write("# edited by hand\n");
    }
    RolloutDialog dialog({ a.profile(QStringLiteral("lab-a")), b.profile(QStringLiteral("lab-b")) });
    QStringList asked;
    dialog.setDifferentPlanAnswer([&](const QString& host, const QString&) {
        asked << host;
        return false;
    });
    QString reviewed;
    dialog.setReviewAnswer([&](const QString& summary) {
        reviewed = summary;
        return true;
    });
    dialog.setAction(QStringLiteral("patch-apply"));
    dialog.setBatch(1, true);
    dialog.show();
    QSignalSpy done(&dialog, &RolloutDialog::finished);
    dialog.start();
    QVERIFY(done.wait(120000));
    QVERIFY2(reviewed.contains(QStringLiteral("CMakeLists.txt")), qPrintable(reviewed));
    QCOMPARE(dialog.runs().at(0).state, HostRunState::Succeeded);
    QCOMPARE(dialog.runs().at(1).state, HostRunState::Refused);
    QCOMPARE(asked, QStringList { "lab-b" });
    QCOMPARE(dialog.table()->item(1, 2)->text(), "refused");
    QVERIFY(dialog.logOf(1).contains(QStringLiteral("differs from the reviewed plan")));
    dialog.table()->setCurrentCell(1, 0);
    QVERIFY(dialog.grab().save(test::screenshotPath(QStringLiteral("fleet-rollout"))));
}

void TestFleetPrometheus::rolloutDialogRecipe()
{
    KF_START_DEMO_HOST(a);
    KF_START_DEMO_HOST(b);
    QTemporaryDir dir;
    const QString recipe = dir.filePath(QStringLiteral("recipe.yaml"));
    {
        QFile f(recipe);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("kernelforge_recipe: 1\nname: lab bring-up\n"
                "patches:\n  set: builtin:sgl-kernel-sm120-cuda13\n  root: ~/sgl-kernel\n");
    }
    QVERIFY(QDir(b.homeDir() + QStringLiteral("/sgl-kernel")).removeRecursively()); // lab-b: no tree
    RolloutDialog dialog({ a.profile(QStringLiteral("lab-a")), b.profile(QStringLiteral("lab-b")) });
    dialog.show();
    // The step chooser offers the recipe; its file goes in the recipe field.
    auto* action = dialog.findChild<QComboBox*>(QStringLiteral("rolloutAction"));
    QVERIFY(action);
    const int at = action->findData(QStringLiteral("recipe"));
    QVERIFY(at >= 0);
    action->setCurrentIndex(at);
    auto* field = dialog.findChild<QLineEdit*>(QStringLiteral("rolloutRecipe"));
    QVERIFY(field);
    field->setText(recipe);
    dialog.setBatch(1, false);
    QSignalSpy done(&dialog, &RolloutDialog::finished);
    dialog.findChild<QPushButton*>(QStringLiteral("rolloutStart"))->click();
    QVERIFY(done.wait(120000));
    QVERIFY2(dialog.runs().at(0).state == HostRunState::Succeeded, qPrintable(dialog.runs().at(0).summary));
    QCOMPARE(dialog.table()->item(0, 2)->text(), "succeeded");
    QVERIFY2(dialog.logOf(0).contains(QStringLiteral("== plan: planning builtin:sgl-kernel-sm120-cuda13"))
            && dialog.logOf(0).contains(QStringLiteral("   apply OK")),
        qPrintable(dialog.logOf(0)));
    QVERIFY(test::readFile(a.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt")).contains("if(POLICY CMP0169)"));
    QCOMPARE(dialog.runs().at(1).state, HostRunState::Failed);
    QVERIFY2(dialog.runs().at(1).summary.startsWith(QStringLiteral("plan: ")), qPrintable(dialog.runs().at(1).summary));
    QCOMPARE(dialog.table()->item(1, 2)->text(), "failed");
    dialog.table()->setCurrentCell(0, 0);
    QVERIFY(dialog.grab().save(test::screenshotPath(QStringLiteral("fleet-rollout-recipe"))));
}

// Promote: the build on lab-a (patched and built through the CLI) verified there, then sent to
// lab-b (it fits: installed and verified) and refused on lab-c (its torch differs), each row
// saying so; the source's row is the source.
void TestFleetPrometheus::rolloutDialogPromote()
{
    KF_START_DEMO_HOST(a);
    KF_START_DEMO_HOST(b);
    KF_START_DEMO_HOST(c);
    QVERIFY(test::installDemoTorch(a, QStringLiteral("2.9.1+cu130")));
    QVERIFY(test::installDemoTorch(b, QStringLiteral("2.9.1+cu130")));
    QVERIFY(test::installDemoTorch(c, QStringLiteral("2.8.0+cu128")));
    QTemporaryDir home; // the CLI's own history: the build is judged on lab-a by what is there
    const QStringList env { QStringLiteral("HOME=") + home.path(), QStringLiteral("XDG_CONFIG_HOME="),
        QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    const QString profile = QStringLiteral("Demo sgl-kernel (CMake + Ninja)");
    const QString built = test::patchAndBuildDemo(a, profile, env);
    QVERIFY2(built.isEmpty(), qPrintable(built));

    RolloutDialog dialog(
        { a.profile(QStringLiteral("lab-a")), b.profile(QStringLiteral("lab-b")), c.profile(QStringLiteral("lab-c")) });
    dialog.show();
    auto* action = dialog.findChild<QComboBox*>(QStringLiteral("rolloutAction"));
    QVERIFY(action);
    const int at = action->findData(QStringLiteral("promote"));
    QVERIFY(at >= 0);
    action->setCurrentIndex(at);
    dialog.setBuildProfile(profile);
    dialog.setPromoteFrom(QStringLiteral("lab-a"), false);
    dialog.setBatch(2, true);
    QSignalSpy done(&dialog, &RolloutDialog::finished);
    dialog.findChild<QPushButton*>(QStringLiteral("rolloutStart"))->click();
    QVERIFY(done.wait(300000));
    QCOMPARE(dialog.runs().at(0).state, HostRunState::Skipped);
    QVERIFY2(dialog.runs().at(0).summary.startsWith(QStringLiteral("the source: files ")),
        qPrintable(dialog.runs().at(0).summary));
    QVERIFY2(dialog.logOf(0).contains(QStringLiteral("verifying the build of")), qPrintable(dialog.logOf(0)));
    QVERIFY2(dialog.runs().at(1).state == HostRunState::Succeeded, qPrintable(dialog.runs().at(1).summary));
    QVERIFY2(
        dialog.runs().at(1).summary.startsWith(QStringLiteral("promoted ")), qPrintable(dialog.runs().at(1).summary));
    QCOMPARE(dialog.runs().at(2).state, HostRunState::Refused);
    QVERIFY2(dialog.runs().at(2).summary.contains(QStringLiteral("torch 2.9.1+cu130 here, 2.8.0+cu128 on lab-c")),
        qPrintable(dialog.runs().at(2).summary));
    QCOMPARE(dialog.table()->item(2, 2)->text(), "refused");
    QVERIFY(dialog.logOf(2).contains(QStringLiteral("differs: torch")));
    dialog.table()->setCurrentCell(2, 0);
    QVERIFY(dialog.grab().save(test::screenshotPath(QStringLiteral("fleet-rollout-promote"))));

    // Asked (the checkbox, clicked): lab-c, which the build does not fit, builds the profile
    // itself (its tree patched first) and verifies; lab-b keeps what it got.
    auto* instead = dialog.findChild<QCheckBox*>(QStringLiteral("rolloutBuildInstead"));
    QVERIFY(instead && instead->isEnabled() && !instead->isChecked());
    action->setCurrentIndex(action->findData(QStringLiteral("patch-plan")));
    QVERIFY(!instead->isEnabled());
    action->setCurrentIndex(at);
    QTest::mouseClick(instead, Qt::LeftButton, {}, QPoint(8, instead->height() / 2));
    QVERIFY(instead->isChecked());
    const QString patched = test::patchDemo(c, env);
    QVERIFY2(patched.isEmpty(), qPrintable(patched));
    dialog.findChild<QPushButton*>(QStringLiteral("rolloutStart"))->click();
    QVERIFY(done.wait(540000));
    QVERIFY2(dialog.runs().at(1).state == HostRunState::Succeeded, qPrintable(dialog.runs().at(1).summary));
    QVERIFY2(dialog.runs().at(2).state == HostRunState::Succeeded, qPrintable(dialog.runs().at(2).summary));
    QVERIFY2(dialog.runs().at(2).summary.startsWith(QStringLiteral("built on lab-c instead")),
        qPrintable(dialog.runs().at(2).summary));
    QVERIFY2(dialog.logOf(2).contains(QStringLiteral("building Demo sgl-kernel (CMake + Ninja) on lab-c instead")),
        qPrintable(dialog.logOf(2)));
    dialog.table()->setCurrentCell(2, 0);
    QVERIFY(dialog.grab().save(test::screenshotPath(QStringLiteral("fleet-rollout-build-instead"))));
}

void TestFleetPrometheus::liveSshStreamAndAProfileFromPrometheus()
{
    // gpu-node-005 has a profile (a demo sshd); gpu-node-006 is only in Prometheus.
    KF_START_DEMO_HOST(demo);
    QTemporaryDir dir;
    HostProfileStore store(dir.filePath(QStringLiteral("hosts.yaml")));
    HostProfile mapped = demo.profile(QStringLiteral("gpu-node-005"));
    mapped.isDemo = false;
    QVERIFY(store.save({ mapped }));
    HostManager hosts;
    hosts.setFactory(SshHostConnection::factory(nullptr)); // as the app: SSH, no prompts here
    AppContext ctx;
    ctx.hosts = &hosts;
    ctx.profiles = &store;
    FleetView view(ctx);
    view.resize(1500, 950);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.showPrometheus(client(), 2000);
    QTRY_VERIFY_WITH_TIMEOUT(view.tileCount() == kHosts, 60000);
    QSignalSpy activated(&view, &FleetView::hostActivated);
    auto clickLive = [&](const QString& name) {
        int index = -1;
        for (int i = 0; i < view.tiles()->hosts().size(); ++i)
            if (view.tiles()->hosts().at(i).name == name)
                index = i;
        QVERIFY(index >= 0);
        const QRect tile = view.tiles()->tileRect(index);
        QVERIFY(!tile.isEmpty());
        QTest::mouseClick(view.tiles(), Qt::LeftButton, {}, tile.center());
        HostDetailDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = view.findChild<HostDetailDialog*>()) != nullptr, 10000);
        auto* live = dialog->findChild<QPushButton*>(QStringLiteral("hostDetailLive"));
        QVERIFY(live);
        live->click();
        QTRY_VERIFY_WITH_TIMEOUT(view.findChild<HostDetailDialog*>() == nullptr, 10000); // closed, deleted
    };
    // The saved gpu-node-005 is a demo sshd on 127.0.0.1, the Prometheus one another address:
    // a match by name only (any exporter can claim a name), acted on only after a yes.
    QStringList asked;
    bool answer = false;
    view.setConfirm([&](const QString&, const QString& text) {
        asked << text;
        return answer;
    });
    clickLive(QStringLiteral("gpu-node-005"));
    QCOMPARE(activated.size(), 0);
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(QStringLiteral("gpu-node-005 matches the saved host gpu-node-005 by name only")),
        qPrintable(asked.first()));
    answer = true;
    clickLive(QStringLiteral("gpu-node-005"));
    QCOMPARE(activated.size(), 1);
    auto* c = activated.first().first().value<HostConnection*>();
    QVERIFY(c);
    QCOMPARE(c->profile().name, "gpu-node-005");
    QCOMPARE(c->profile().port, demo.port()); // the saved profile, not one made from labels
    QTRY_VERIFY_WITH_TIMEOUT(c->state() == ConnectionState::Ready, 60000);
    QCOMPARE(hosts.find(QStringLiteral("gpu-node-005")), c);

    // A Prometheus-only host: a profile is made from its labels, saved and added to the hosts.
    clickLive(QStringLiteral("gpu-node-006"));
    QCOMPARE(activated.size(), 2);
    auto* made = activated.at(1).first().value<HostConnection*>();
    QVERIFY(made);
    QCOMPARE(made->profile().name, "gpu-node-006");
    QCOMPARE(made->profile().host, m_prom->address(6));
    QCOMPARE(hosts.find(QStringLiteral("gpu-node-006")), made);
    const auto saved = store.load();
    QVERIFY(saved);
    QStringList names;
    for (const HostProfile& p : saved->profiles)
        names << p.name;
    QCOMPARE(names, QStringList({ "gpu-node-005", "gpu-node-006" }));

    // A host list that cannot make a connection for the profile: the view says so (no crash).
    hosts.setFactory([](const HostProfile&, QObject*) -> HostConnection* { return nullptr; });
    clickLive(QStringLiteral("gpu-node-007"));
    QCOMPARE(activated.size(), 2);
    const auto* status = view.findChild<QLabel*>(QStringLiteral("fleetStatus"));
    QVERIFY(status);
    QTRY_VERIFY2(status->text().contains(QStringLiteral("cannot open a live stream to gpu-node-007")),
        qPrintable(status->text()));
}

QTEST_MAIN(TestFleetPrometheus)
#include "tst_fleetprometheus.moc"
