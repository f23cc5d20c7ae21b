// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/fleet/fleetview.h"

#include "core/fleet/fleetsource.h"
#include "core/gpu/gpumonitor.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/hosts/hostprofilestore.h"
#include "core/remotebuild/buildsession.h"
#include "core/server/serversession.h"
#include "core/sessions/hostsessions.h"
#include "ui/common/flowlayout.h"
#include "ui/common/plaintext.h"
#include "ui/fleet/fleettiles.h"
#include "ui/fleet/hostdetaildialog.h"
#include "ui/fleet/prometheusdialog.h"
#include "ui/fleet/rolloutdialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace kf {

using namespace fleet;

namespace {

// The servers a tile names: every one of ours that runs, and any port polled (the Server pane's).
QList<FleetServer> fleetServers(const ServerSession& session)
{
    QList<FleetServer> out;
    for (quint16 port : session.ports()) {
        const ServerState* s = session.server(port);
        if (!s->running() && !s->watched)
            continue;
        FleetServer f;
        f.port = port;
        f.polledMs = s->last.timeMs;
        f.reachable = s->last.reachable;
        f.healthStatus = s->last.healthStatus;
        if (s->last.reachable && s->last.hasMetrics) {
            f.tokensPerS = s->last.metrics.genThroughput;
            f.running = s->last.metrics.running;
        }
        f.jobRunning = s->running();
        out.append(f);
    }
    return out;
}

} // namespace

FleetView::~FleetView()
{
    m_prometheus.reset();
    // A hub we own is deleted while this view is still whole: its monitors emit as they stop.
    if (m_hub->parent() == this)
        delete m_hub;
}

FleetView::FleetView(const AppContext& context, QWidget* parent)
    : QWidget(parent)
    , m_context(context)
    , m_hub(context.gpuMonitors ? context.gpuMonitors : new GpuMonitorHub(this))
{
    auto* outer = new QVBoxLayout(this);
    auto* bar = new FlowLayout; // wraps in a narrow window rather than widening it
    m_sourceBox = new QComboBox(this);
    m_sourceBox->setObjectName(QStringLiteral("fleetSource"));
    m_sourceBox->addItem(tr("SSH streams"));
    m_sourceBox->addItem(tr("Prometheus"));
    auto* promButton = new QPushButton(tr("Prometheus server…"), this);
    promButton->setObjectName(QStringLiteral("fleetPrometheusSettings"));
    m_groupBox = new QComboBox(this);
    m_groupBox->setObjectName(QStringLiteral("fleetGroupBy"));
    m_groupBox->setEditable(true); // any target label: rack, zone, cluster...
    m_groupBox->addItem(tr("no groups"), QString());
    m_groupBox->addItem(tr("tag"), QStringLiteral("tag"));
    m_groupBox->addItem(QStringLiteral("job"), QStringLiteral("job"));
    m_sortBox = new QComboBox(this);
    m_sortBox->setObjectName(QStringLiteral("fleetSort"));
    for (FleetSort s :
        { FleetSort::Name, FleetSort::Hottest, FleetSort::Busiest, FleetSort::MemoryUsed, FleetSort::Stale })
        m_sortBox->addItem(tr("sort: %1").arg(fleetSortName(s)), int(s));
    m_filterBox = new QComboBox(this);
    m_filterBox->setObjectName(QStringLiteral("fleetFilter"));
    for (FleetFilter f : fleetFilters())
        m_filterBox->addItem(tr("show: %1").arg(fleetFilterName(f)), int(f));
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("fleetSearch"));
    m_search->setPlaceholderText(tr("host name"));
    m_search->setClearButtonEnabled(true);
    auto* rollout = new QPushButton(tr("Roll out…"), this);
    rollout->setObjectName(QStringLiteral("fleetRollout"));
    rollout->setToolTip(tr("Patch, preflight or build on the hosts shown, in batches"));
    bar->addWidget(m_sourceBox);
    bar->addWidget(promButton);
    bar->addWidget(m_groupBox);
    bar->addWidget(m_sortBox);
    bar->addWidget(m_filterBox);
    bar->addWidget(m_search); // expanding: takes its row's spare width
    bar->addWidget(rollout);
    outer->addLayout(bar);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("fleetStatus"));
    m_status->setTextFormat(Qt::PlainText); // Prometheus' errors and exporters' names
    m_status->setWordWrap(true);            // Prometheus' errors can be long
    outer->addWidget(m_status);
    // What the bars at the bottom of each tile mean (red there is busy, not an error).
    auto swatch = [](const QColor& c, const QString& what) {
        return QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2").arg(c.name(), what.toHtmlEscaped());
    };
    auto* legend = new QLabel(tr("GPU bars, one per GPU, height and colour its utilisation:") + QStringLiteral(" ")
            + QStringList { swatch(FleetTiles::utilColor(0), tr("idle")), swatch(FleetTiles::utilColor(50), tr("half")),
                swatch(FleetTiles::utilColor(100), tr("fully busy")),
                swatch(FleetTiles::utilColor(noValue()), tr("no value or stale")) }
                  .join(QStringLiteral(" &nbsp; "))
            + QStringLiteral(" · ") + tr("hover a bar for its GPU"),
        this);
    legend->setObjectName(QStringLiteral("fleetLegend"));
    legend->setTextFormat(Qt::RichText); // our own words only
    legend->setWordWrap(true);
    legend->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(legend);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    m_tiles = new FleetTiles(scroll);
    scroll->setWidget(m_tiles);
    outer->addWidget(scroll, 1);

    connect(m_sourceBox, &QComboBox::activated, this, [this](int i) {
        if (i == 0)
            showSshStreams();
        else if (!m_prometheus)
            openPrometheusDialog();
        else
            showPrometheus(m_prometheus->client());
    });
    connect(promButton, &QPushButton::clicked, this, &FleetView::openPrometheusDialog);
    connect(m_groupBox, &QComboBox::currentTextChanged, this, &FleetView::rearrange);
    connect(m_sortBox, &QComboBox::currentIndexChanged, this, &FleetView::rearrange);
    connect(m_filterBox, &QComboBox::currentIndexChanged, this, &FleetView::rearrange);
    connect(m_search, &QLineEdit::textChanged, this, &FleetView::rearrange);
    connect(rollout, &QPushButton::clicked, this, &FleetView::openRollout);
    connect(m_tiles, &FleetTiles::hostClicked, this, &FleetView::onTileClicked);

    // Many hosts each sample once a second: one model update per 250 ms at most.
    m_sshCoalesce.setSingleShot(true);
    m_sshCoalesce.setInterval(250);
    connect(&m_sshCoalesce, &QTimer::timeout, this, &FleetView::updateFromSsh);
    connect(m_hub, &GpuMonitorHub::monitorAdded, this, [this](HostConnection* host, GpuMonitor*) { followHost(host); });
    if (context.hosts) {
        for (HostConnection* h : context.hosts->hosts())
            followHost(h);
        connect(context.hosts, &HostManager::hostAdded, this, &FleetView::followHost);
        connect(context.hosts, &HostManager::hostRemoved, this, &FleetView::scheduleSshUpdate);
    }
    if (context.sessions)
        connect(context.sessions, &HostSessions::changed, this, &FleetView::scheduleSshUpdate);
    updateFromSsh();
}

void FleetView::followHost(HostConnection* host)
{
    if (!host)
        return;
    const bool added = !m_followed.contains(host);
    if (added) {
        m_followed.insert(host, host);
        connect(host, &HostConnection::stateChanged, this, [this, host] {
            m_hub->monitorFor(host);
            scheduleSshUpdate();
        });
    }
    if (GpuMonitor* m = m_hub->monitorFor(host)) {
        // Unique connections: monitorAdded and addHost may both reach here.
        connect(m, &GpuMonitor::samplesUpdated, this, &FleetView::scheduleSshUpdate, Qt::UniqueConnection);
        connect(m, &GpuMonitor::alertRaised, this, &FleetView::scheduleSshUpdate, Qt::UniqueConnection);
        connect(m, &GpuMonitor::alertCleared, this, &FleetView::scheduleSshUpdate, Qt::UniqueConnection);
        connect(
            m, &GpuMonitor::stateChanged, this, &FleetView::scheduleSshUpdate, Qt::UniqueConnection); // driverMissing
    }
    if (added)
        updateFromSsh(); // a new tile shows at once; samples are coalesced
    else
        scheduleSshUpdate();
}

void FleetView::scheduleSshUpdate()
{
    if (m_source == Source::SshStreams && !m_sshCoalesce.isActive())
        m_sshCoalesce.start();
}

void FleetView::updateFromSsh()
{
    if (m_source != Source::SshStreams)
        return;
    QList<FleetHost> hosts;
    if (m_context.hosts) {
        for (HostConnection* c : m_context.hosts->hosts()) {
            FleetHost h;
            h.key = c->profile().name;
            h.name = c->profile().name;
            h.profileName = c->profile().name;
            h.tags = c->profile().tags;
            h.instances = { c->profile().destination() };
            h.viaSsh = true;
            if (m_context.sessions) {
                if (ServerSession* session = m_context.sessions->serverSession(c))
                    h.servers = fleetServers(*session);
                if (BuildSession* build = m_context.sessions->runningBuild(c)) {
                    const BuildProgress& p = build->progress();
                    h.buildJob = build->jobId();
                    if (p.done >= 0 && p.total > 0) {
                        h.buildDone = p.done;
                        h.buildTotal = p.total;
                    }
                    h.buildEtaS = p.etaS >= 0 && p.done < p.total ? p.etaS : noValue();
                }
            }
            if (GpuMonitor* m = m_hub->monitorFor(c)) {
                h.gpus = m->latest();
                h.lastSampleMs = m->latestTimeMs();
                if (m->hasHealth())
                    h.health = m->health().gpus;
                if (m->driverMissing()) // said as the tile's GPU line, not as an alert
                    h.gpuNote = tr("No NVIDIA driver found on this host");
                else
                    h.alerts = m->activeAlerts();
            }
            if (c->state() != ConnectionState::Ready) {
                h.stale = !h.gpus.isEmpty() || c->state() != ConnectionState::Connecting;
                h.staleReason = toString(c->state());
            }
            hosts << h;
        }
    }
    setHosts(hosts, tr("%n host(s) over SSH (one nvidia-smi stream each)", nullptr, int(hosts.size())));
}

void FleetView::showSshStreams()
{
    if (m_prometheus)
        m_prometheus->stop();
    m_source = Source::SshStreams;
    m_sourceBox->setCurrentIndex(0);
    updateFromSsh();
}

void FleetView::showPrometheus(std::shared_ptr<PromClient> client, int intervalMs)
{
    if (!m_prometheus || m_prometheus->client() != client) {
        m_prometheus = std::make_unique<FleetSource>(client);
        connect(m_prometheus.get(), &FleetSource::snapshotReady, this, [this](const FleetSnapshot& s) {
            QList<FleetHost> hosts = s.hosts;
            mapProfiles(hosts, knownProfiles());
            int stale = 0;
            for (const FleetHost& h : std::as_const(hosts))
                stale += h.stale;
            setHosts(hosts,
                tr("%1 host(s) from %2 · %3 stale · refreshed %4 (%5 queries, %6 ms)%7")
                    .arg(hosts.size())
                    .arg(m_prometheus->client()->endpoint().url())
                    .arg(stale)
                    .arg(QDateTime::fromMSecsSinceEpoch(s.timeMs).toString(QStringLiteral("HH:mm:ss")))
                    .arg(fleetQueries().size())
                    .arg(s.queryWallMs)
                    .arg(s.problems.isEmpty() ? QString() : QStringLiteral(" · ") + s.problems.first()));
        });
        connect(m_prometheus.get(), &FleetSource::refreshFailed, this, [this](const QString& e) {
            m_status->setText(tr("Prometheus: %1 (the tiles keep their last values)").arg(e));
        });
    }
    m_source = Source::Prometheus;
    m_sourceBox->setCurrentIndex(1);
    m_status->setText(tr("asking %1…").arg(client->describe()));
    m_prometheus->setInterval(intervalMs);
    m_prometheus->start();
}

void FleetView::setHosts(QList<FleetHost> hosts, const QString& status)
{
    m_hosts = std::move(hosts);
    m_status->setText(status);
    ++m_updates;
    rearrange();
}

void FleetView::setArrangement(const QString& groupBy, FleetSort sort, FleetFilter filter)
{
    const QSignalBlocker b1(m_groupBox), b2(m_sortBox), b3(m_filterBox);
    const int g = m_groupBox->findData(groupBy);
    if (g >= 0)
        m_groupBox->setCurrentIndex(g);
    else
        m_groupBox->setCurrentText(groupBy);
    m_sortBox->setCurrentIndex(m_sortBox->findData(int(sort)));
    m_filterBox->setCurrentIndex(m_filterBox->findData(int(filter)));
    rearrange();
}

void FleetView::rearrange()
{
    QString groupBy = m_groupBox->currentData().toString();
    if (m_groupBox->currentText() != m_groupBox->itemText(m_groupBox->currentIndex()) || m_groupBox->currentIndex() < 0)
        groupBy = m_groupBox->currentText().trimmed(); // typed: a label name
    const auto sort = FleetSort(m_sortBox->currentData().toInt());
    const auto filter = FleetFilter(m_filterBox->currentData().toInt());
    m_tiles->setFleet(m_hosts, arrangeFleet(m_hosts, groupBy, sort, filter, AlertRules(), m_search->text().trimmed()));
}

int FleetView::tileCount() const
{
    return m_tiles->tileCount();
}

const QList<FleetHost>& FleetView::fleetHosts() const
{
    return m_hosts;
}

QString FleetView::tileText(const QString& hostName) const
{
    for (int i : m_tiles->displayOrder())
        if (m_hosts.at(i).name == hostName)
            return FleetTiles::tileLines(m_hosts.at(i)).join(u'\n');
    return {};
}

QList<HostProfile> FleetView::knownProfiles() const
{
    QList<HostProfile> out;
    if (m_context.hosts)
        for (HostConnection* c : m_context.hosts->hosts())
            out << c->profile();
    if (m_context.profiles)
        if (const auto saved = m_context.profiles->load(); saved)
            out += saved->profiles;
    return out;
}

void FleetView::onTileClicked(int index)
{
    if (index < 0 || index >= m_hosts.size())
        return;
    const FleetHost& h = m_hosts.at(index);
    if (m_source == Source::SshStreams) {
        if (m_context.hosts)
            if (HostConnection* c = m_context.hosts->find(h.profileName))
                Q_EMIT hostActivated(c);
        return;
    }
    auto* dialog = new HostDetailDialog(h, m_prometheus->client(), m_prometheus->snapshot().scrapeIntervalS, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &HostDetailDialog::liveStreamRequested, this, [this, h] { openLiveStream(h); });
    dialog->show();
}

bool FleetView::confirmNameOnly(const QList<const FleetHost*>& hosts)
{
    QStringList lines;
    for (const FleetHost* h : hosts)
        if (h->profileMatch == ProfileMatch::NameOnly)
            lines << tr("%1 %2").arg(h->name, nameOnlyMatchText(*h));
    if (lines.isEmpty())
        return true;
    const QString title = tr("Saved hosts matched by name only");
    const QString text = tr("Prometheus names these hosts like saved hosts, but at other addresses; any exporter "
                            "can claim a name:\n\n%1\n\nAct on the saved hosts anyway?")
                             .arg(lines.join(u'\n'));
    return m_confirm ? m_confirm(title, text) : askPlain(this, title, text);
}

void FleetView::openLiveStream(const FleetHost& h)
{
    if (!m_context.hosts || !confirmNameOnly({ &h }))
        return;
    HostConnection* c = h.profileName.isEmpty() ? nullptr : m_context.hosts->find(h.profileName);
    if (!c) {
        // A saved profile, or one made from Prometheus' labels and saved (the user adds the
        // login in the connect dialog if the default user and keys do not do).
        HostProfile profile;
        bool known = false;
        for (const HostProfile& p : knownProfiles())
            if (p.name == h.profileName) {
                profile = p;
                known = true;
            }
        if (!known) {
            auto made = profileFor(h); // from the exporter's labels: checked first
            if (!made) {
                m_status->setText(tr("cannot open a live stream to %1: %2").arg(h.key, made.error()));
                return;
            }
            profile = made.value();
        }
        if (!known && m_context.profiles)
            if (const auto saved = m_context.profiles->upsert(profile); !saved)
                m_status->setText(tr("could not save a profile for %1: %2").arg(h.name, saved.error()));
        c = m_context.hosts->add(profile);
    }
    if (!c) { // the host list has no connection for this kind of profile
        m_status->setText(tr("cannot open a live stream to %1").arg(h.name));
        return;
    }
    if (c->state() == ConnectionState::Disconnected || c->state() == ConnectionState::Failed)
        c->connectToHost();
    Q_EMIT hostActivated(c);
}

void FleetView::openPrometheusDialog()
{
    PrometheusDialog dialog(m_context, this);
    if (dialog.exec() != QDialog::Accepted) {
        if (!m_prometheus)
            m_sourceBox->setCurrentIndex(0);
        return;
    }
    showPrometheus(dialog.client());
}

void FleetView::openRollout()
{
    // The hosts shown now (after the filter), those with a profile.
    QList<HostProfile> selected;
    const QList<HostProfile> profiles = knownProfiles();
    QList<const FleetHost*> nameOnly;
    for (int i : m_tiles->displayOrder())
        if (m_hosts.at(i).profileMatch == ProfileMatch::NameOnly)
            nameOnly << &m_hosts.at(i);
    const bool withNameOnly = confirmNameOnly(nameOnly);
    for (int i : m_tiles->displayOrder()) {
        const QString name = m_hosts.at(i).profileName;
        if (m_hosts.at(i).profileMatch == ProfileMatch::NameOnly && !withNameOnly)
            continue;
        for (const HostProfile& p : profiles)
            if (!name.isEmpty() && p.name == name) {
                selected << p;
                break;
            }
    }
    auto* dialog = new RolloutDialog(selected, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

} // namespace kf
