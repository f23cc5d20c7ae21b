// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The one YAML reader's own rules (the five formats through it: tst_yamlformats): the error
// form, paths through maps and lists, bounds on size, numbers and depth.
#include "core/util/yamlnode.h"

#include <QtTest>

#include <cmath>

using namespace kf;

namespace {

QString errorOf(const QByteArray& text, const std::function<void(const YamlNode&)>& body)
{
    const auto e = readYaml(text, QStringLiteral("f.yaml"), body);
    return e ? e->message() : QString();
}

} // namespace

class TestYamlNode : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void theErrorForm()
    {
        QCOMPARE((YamlError { QStringLiteral("f.yaml"), 3, QStringLiteral("a.b"), QStringLiteral("why") }.message()),
            QStringLiteral("f.yaml:3: a.b: why"));
        QCOMPARE((YamlError { QStringLiteral("f.yaml"), 0, QString(), QStringLiteral("why") }.message()),
            QStringLiteral("f.yaml: why"));
    }

    void pathsThroughMapsAndLists()
    {
        const QByteArray doc = "a:\n  b:\n    - {c: 1}\n    - {c: x}\n";
        QCOMPARE(errorOf(doc,
                     [](const YamlNode& root) {
                         for (const YamlNode& item : root.map("a")->list("b"))
                             (void)item.integer("c", 0, 0, 9);
                     }),
            QStringLiteral("f.yaml:4: a.b[1].c: must be a whole number from 0 to 9, not 'x'"));
        // A missing key fails at its map's line.
        QCOMPARE(errorOf(doc, [](const YamlNode& root) { (void)root.map("a")->requiredText("z"); }),
            QStringLiteral("f.yaml:2: a.z: is required"));
    }

    void numbersAreBounded()
    {
        for (const char* bad : { "nan", "inf", "-inf", "1e309", "12abc", "" }) {
            const QString e = errorOf(
                QByteArray("n: \"") + bad + "\"\n", [](const YamlNode& root) { (void)root.number("n", 0, 0, 1e6); });
            QVERIFY2(e.startsWith(QLatin1String("f.yaml:1: n: must be a number from 0 to")), qPrintable(e));
        }
        QCOMPARE(errorOf("n: 99999999999999999999\n", [](const YamlNode& root) { (void)root.integer("n", 0, 0, 5); }),
            QStringLiteral("f.yaml:1: n: must be a whole number from 0 to 5, not '99999999999999999999'"));
        int got = -1;
        QCOMPARE(errorOf("n: ~\n", [&](const YamlNode& root) { got = root.integer("n", 7, 0, 9); }), QString());
        QCOMPARE(got, 7);
    }

    void aValueOrAList()
    {
        QStringList got;
        QCOMPARE(errorOf("a: x\nb: [y, z]\n",
                     [&](const YamlNode& root) { got = root.texts("a", true) + root.texts("b", true); }),
            QString());
        QCOMPARE(got, (QStringList { QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z") }));
        QCOMPARE(errorOf("a: x\n", [](const YamlNode& root) { (void)root.texts("a"); }),
            QStringLiteral("f.yaml:1: a: must be a list"));
    }

    void unknownKeysAreNamed()
    {
        QCOMPARE(errorOf("a: 1\nzz: 2\n", [](const YamlNode& root) { root.onlyKeys({ QStringLiteral("a") }); }),
            QStringLiteral("f.yaml:2: zz: unknown key (known: a)"));
    }

    void sizeAndDepthAreBounded()
    {
        const auto big = readYaml(
            QByteArray(100, '#'), QStringLiteral("f.yaml"), [](const YamlNode&) {}, 99);
        QVERIFY(big);
        QCOMPARE(big->message(), QStringLiteral("f.yaml: larger than 99 bytes"));
        // Deep nesting is refused by the parser, not by the stack.
        const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
        const QString e = errorOf(deep, [](const YamlNode&) {});
        QVERIFY2(e.startsWith(QLatin1String("f.yaml")), qPrintable(e));
        QVERIFY2(e.contains(QLatin1String("invalid YAML")), qPrintable(e));
    }

    void anEmptyDocumentIsAbsent()
    {
        bool absent = false;
        QCOMPARE(errorOf("# only a comment\n", [&](const YamlNode& root) { absent = root.isAbsent(); }), QString());
        QVERIFY(absent);
    }
};

QTEST_GUILESS_MAIN(TestYamlNode)
#include "tst_yamlnode.moc"
