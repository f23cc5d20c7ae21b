// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The five YAML formats KernelForge reads, through the one reader (core/util/yamlnode.h):
// the same error form ("FILE:LINE: KEY: why"), the same boolean rule, the same refusal of a key
// written twice and of broken YAML, in every one of them. Each format's own rules are in its
// own test (tst_deployrecipe, tst_buildprofile, tst_edits, tst_hostprofilestore,
// tst_referenceresults).
#include "core/deploy/deployrecipe.h"
#include "core/hosts/hostprofilestore.h"
#include "core/patch/patchset.h"
#include "core/remotebuild/buildprofile.h"
#include "core/servebench/referenceresults.h"

#include <QtTest>

#include <functional>

using namespace kf;

namespace {

// A format: a minimal valid document whose boolean field (if it has one) reads BOOL, and how
// to read one (the error, empty when it reads; the boolean's value when it has one).
struct Format
{
    QString file;
    QByteArray document; // "BOOL" stands for the boolean's text
    QString boolPath;    // the boolean's key path; empty: the format has none
    int boolLine = 0;
    std::function<QString(const QByteArray&, bool* value)> read;
};

QList<Format> formats()
{
    return {
        { QStringLiteral("recipe.yaml"), "kernelforge_recipe: 1\nserver:\n  model_path: /m\n  demo: BOOL\n",
            QStringLiteral("server.demo"), 4,
            [](const QByteArray& y, bool* v) {
                const auto r = deploy::parseDeployRecipe(y, QStringLiteral("recipe.yaml"));
                if (r && r->server)
                    *v = r->server->demo;
                return r ? QString() : r.error();
            } },
        { QStringLiteral("build-profiles.yaml"), "profiles:\n  - name: a\n    command: make\n    ccache: BOOL\n",
            QStringLiteral("profiles[0].ccache"), 4,
            [](const QByteArray& y, bool* v) {
                const auto r = parseBuildProfiles(y);
                if (r && !r.profiles.isEmpty())
                    *v = r.profiles.first().ccache;
                return r.error;
            } },
        { QStringLiteral("set.yaml"),
            "name: s\npatches:\n  - id: p\n    file: f.txt\n    edits:\n      - ensure: {text: x, optional: BOOL}\n",
            QStringLiteral("patches[0].edits[0].ensure.optional"), 6,
            [](const QByteArray& y, bool* v) {
                const auto r = patch::parsePatchSetYaml(y, QStringLiteral("set.yaml"));
                if (r)
                    *v = r->patches.first().edits.first().optional;
                return r ? QString() : r.error();
            } },
        { QStringLiteral("hosts.yaml"), "version: 1\nhosts:\n  - name: me\n    local: BOOL\n    host: h\n",
            QStringLiteral("hosts[0].local"), 4,
            [](const QByteArray& y, bool* v) {
                const auto r = parseHostProfiles(y, QStringLiteral("hosts.yaml"));
                if (r)
                    *v = r->profiles.first().isLocal;
                return r ? QString() : r.error();
            } },
        { QStringLiteral("reference.yaml"),
            "results:\n  - {model: m, gpu: H200, gpus: 1, precision: bf16, input_len: 1, output_len: 1, "
            "concurrency: 1, tok_s: 10, source: s}\n",
            QString(), 0,
            [](const QByteArray& y, bool*) {
                const auto r = parseReferenceTable(y, QStringLiteral("reference.yaml"));
                return r ? QString() : r.error();
            } },
    };
}

} // namespace

class TestYamlFormats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachFormatReadsItsMinimalDocument()
    {
        for (const Format& f : formats()) {
            bool value = false;
            const QString error = f.read(QByteArray(f.document).replace("BOOL", "true"), &value);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QVERIFY2(value || f.boolPath.isEmpty(), qPrintable(f.file));
        }
    }

    // One rule: YAML 1.2's true and false in its three spellings; yes, no, on, off, y, 1 are
    // refused (YAML 1.1 tools read them as booleans, YAML 1.2 tools as text), with the form.
    void oneBooleanRule_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("expected"); // 1 true, 0 false, -1 refused
        for (const char* t : { "true", "True", "TRUE" })
            QTest::newRow(t) << QByteArray(t) << 1;
        for (const char* t : { "false", "False", "FALSE" })
            QTest::newRow(t) << QByteArray(t) << 0;
        for (const char* t : { "yes", "no", "on", "off", "y", "n", "1", "0", "tRuE", "'maybe'", "[true]" })
            QTest::newRow(t) << QByteArray(t) << -1;
    }
    void oneBooleanRule()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, expected);
        for (const Format& f : formats()) {
            if (f.boolPath.isEmpty())
                continue;
            bool value = expected != 1;
            const QString error = f.read(QByteArray(f.document).replace("BOOL", text), &value);
            if (expected >= 0) {
                QVERIFY2(error.isEmpty(), qPrintable(error));
                QCOMPARE(value, expected == 1);
                continue;
            }
            const QString shown = text.startsWith('[') ? QStringLiteral("a list or map")
                                                       : QString::fromUtf8(text).remove(QLatin1Char('\''));
            QCOMPARE(error,
                QStringLiteral("%1:%2: %3: must be true or false, not '%4'")
                    .arg(f.file)
                    .arg(f.boolLine)
                    .arg(f.boolPath, shown));
        }
    }

    // A key written twice means one thing to yaml-cpp (the first) and another to every other
    // YAML tool (the last): refused in every format (patch sets took the first before).
    void aKeyWrittenTwiceIsRefusedEverywhere()
    {
        for (const Format& f : formats()) {
            bool value = false;
            QByteArray doc = QByteArray(f.document).replace("BOOL", "true");
            const int firstBreak = doc.indexOf('\n');
            const QByteArray firstLine = doc.left(firstBreak);
            const QByteArray key = firstLine.left(firstLine.indexOf(':'));
            doc.insert(firstBreak + 1, firstLine + '\n');
            QCOMPARE(f.read(doc, &value),
                QStringLiteral("%1:2: %2: duplicate key (first at line 1)").arg(f.file, QString::fromUtf8(key)));
        }
    }

    void brokenYamlSaysWhereInEveryFormat()
    {
        for (const Format& f : formats()) {
            bool value = false;
            const QString error = f.read(QByteArray(f.document).replace("BOOL", "true") + "x: [unclosed\n", &value);
            QVERIFY2(error.startsWith(f.file + QLatin1Char(':')), qPrintable(error));
            QVERIFY2(error.contains(QLatin1String(": invalid YAML: ")), qPrintable(error));
        }
    }

    // A value of the wrong kind: the path of the field from the top, at its line.
    void aWrongKindNamesThePath_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<QByteArray>("document");
        QTest::addColumn<QString>("error");
        QTest::newRow("recipe") << 0 << QByteArray("kernelforge_recipe: 1\nbuild:\n  cmake_args: {a: 1}\n")
                                << "recipe.yaml:3: build.cmake_args: must be a list";
        QTest::newRow("profiles") << 1 << QByteArray("profiles:\n  - name: a\n    command: make\n    max_jobs: [2]\n")
                                  << "build-profiles.yaml:4: profiles[0].max_jobs: must be a single value";
        QTest::newRow("patch set") << 2 << QByteArray("name: s\npatches:\n  - id: [p]\n")
                                   << "set.yaml:3: patches[0].id: must be a single value";
        QTest::newRow("hosts") << 3 << QByteArray("hosts:\n  - name: a\n    host: h\n    tags: {a: b}\n")
                               << "hosts.yaml:4: hosts[0].tags: must be a value or a list of values";
        QTest::newRow("reference") << 4
                                   << QByteArray("results:\n  - {model: m, gpu: H200, gpus: two, precision: bf16, "
                                                 "input_len: 1, output_len: 1, concurrency: 1, tok_s: 1, source: s}\n")
                                   << "reference.yaml:2: results[0].gpus: must be a whole number from 1 to 4096, not "
                                      "'two'";
    }
    void aWrongKindNamesThePath()
    {
        QFETCH(int, format);
        QFETCH(QByteArray, document);
        QFETCH(QString, error);
        bool value = false;
        QCOMPARE(formats().at(format).read(document, &value), error);
    }

    // What a file holds is shown as text, never as the terminal's control sequence.
    void controlCharactersInAnErrorAreEscaped()
    {
        const auto r = parseHostProfiles(
            "hosts:\n  - name: a\n    host: h\n    port: \"\\e[2J22\"\n", QStringLiteral("hosts.yaml"));
        QVERIFY(!r);
        QVERIFY2(!r.error().contains(QChar(0x1b)), qPrintable(r.error()));
        QVERIFY2(r.error().contains(QLatin1String("\\x1b[2J22")), qPrintable(r.error()));
    }
};

QTEST_GUILESS_MAIN(TestYamlFormats)
#include "tst_yamlformats.moc"
