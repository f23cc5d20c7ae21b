// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/textdiff.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace kf::textdiff;

namespace {

// Replays runs: equal runs must agree, and the result must rebuild both sides.
bool consistent(const QStringList& a, const QStringList& b, const QList<Run>& runs, QString* why)
{
    int i = 0, j = 0;
    for (const Run& r : runs) {
        if (r.oldStart != i || r.newStart != j) {
            *why = QStringLiteral("run starts at %1/%2, expected %3/%4").arg(r.oldStart).arg(r.newStart).arg(i).arg(j);
            return false;
        }
        if (r.kind == Run::Equal) {
            for (int k = 0; k < r.length; ++k)
                if (a[i + k] != b[j + k]) {
                    *why = QStringLiteral("equal run differs at %1").arg(i + k);
                    return false;
                }
            i += r.length;
            j += r.length;
        } else if (r.kind == Run::Delete) {
            i += r.length;
        } else {
            j += r.length;
        }
    }
    if (i != a.size() || j != b.size()) {
        *why = QStringLiteral("runs end at %1/%2 of %3/%4").arg(i).arg(j).arg(a.size()).arg(b.size());
        return false;
    }
    return true;
}

int editCount(const QList<Run>& runs)
{
    int n = 0;
    for (const Run& r : runs)
        n += r.kind == Run::Equal ? 0 : r.length;
    return n;
}

QStringList lines(const char* s)
{
    return QString::fromUtf8(s).split(QLatin1Char(','), Qt::KeepEmptyParts);
}

} // namespace

class TestTextDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void minimal_data();
    void minimal();
    void randomEditsAreConsistent();
    void unifiedMatchesGnuDiff_data();
    void unifiedMatchesGnuDiff();
    void splitJoinRoundTrip_data();
    void splitJoinRoundTrip();
    void mergeAccepted();
    void words_data();
    void words();
};

void TestTextDiff::minimal_data()
{
    QTest::addColumn<QStringList>("a");
    QTest::addColumn<QStringList>("b");
    QTest::addColumn<int>("edits"); // the shortest edit script's length
    QTest::newRow("equal") << lines("a,b,c") << lines("a,b,c") << 0;
    QTest::newRow("insert middle") << lines("a,b,c") << lines("a,x,b,c") << 1;
    QTest::newRow("delete end") << lines("a,b,c") << lines("a,b") << 1;
    QTest::newRow("replace") << lines("a,b,c") << lines("a,x,c") << 2;
    QTest::newRow("empty old") << QStringList() << lines("a,b") << 2;
    QTest::newRow("empty new") << lines("a,b") << QStringList() << 2;
    QTest::newRow("myers paper") << lines("A,B,C,A,B,B,A") << lines("C,B,A,B,A,C") << 5;
    QTest::newRow("repeated lines") << lines("x,x,x,y,x,x") << lines("x,y,x,x,x,x") << 2;
}

void TestTextDiff::minimal()
{
    QFETCH(QStringList, a);
    QFETCH(QStringList, b);
    QFETCH(int, edits);
    const QList<Run> runs = diffLines(a, b);
    QString why;
    QVERIFY2(consistent(a, b, runs, &why), qPrintable(why));
    QCOMPARE(editCount(runs), edits);
}

void TestTextDiff::randomEditsAreConsistent()
{
    QRandomGenerator rng(42);
    for (int round = 0; round < 200; ++round) {
        QStringList a;
        const int n = int(rng.bounded(60));
        for (int i = 0; i < n; ++i)
            a.append(QString::number(rng.bounded(8)));
        QStringList b = a;
        const int changes = int(rng.bounded(10));
        int applied = 0;
        for (int c = 0; c < changes; ++c) {
            const int pos = b.isEmpty() ? 0 : int(rng.bounded(b.size()));
            if (rng.bounded(2) && !b.isEmpty())
                b.removeAt(pos);
            else
                b.insert(pos, QString::number(rng.bounded(8)));
            ++applied;
        }
        const QList<Run> runs = diffLines(a, b);
        QString why;
        QVERIFY2(consistent(a, b, runs, &why), qPrintable(why));
        QVERIFY(editCount(runs) <= applied); // never worse than the edits we made
    }
}

void TestTextDiff::unifiedMatchesGnuDiff_data()
{
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");
    QTest::newRow("one change") << QStringLiteral("a\nb\nc\nd\ne\nf\ng\nh\n")
                                << QStringLiteral("a\nb\nc\nD\ne\nf\ng\nh\n");
    QTest::newRow("two hunks") << QStringLiteral("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n")
                               << QStringLiteral("1\nX\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nY\n16\n");
    QTest::newRow("merged hunks") << QStringLiteral("1\n2\n3\n4\n5\n6\n7\n8\n")
                                  << QStringLiteral("1\nX\n3\n4\n5\n6\nY\n8\n");
    QTest::newRow("no newline at end") << QStringLiteral("a\nb\nc") << QStringLiteral("a\nb\nc\n");
    QTest::newRow("insert at start") << QStringLiteral("a\nb\n") << QStringLiteral("new\na\nb\n");
    QTest::newRow("delete everything") << QStringLiteral("a\nb\n") << QString();
}

void TestTextDiff::unifiedMatchesGnuDiff()
{
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a")), b = dir.filePath(QStringLiteral("b"));
    for (const auto& [path, text] : { std::pair { a, oldText }, std::pair { b, newText } }) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
    }
    const auto gnu = kf::test::runProgram(QStringLiteral("diff"),
        { QStringLiteral("-u"), QStringLiteral("--label"), QStringLiteral("a"), QStringLiteral("--label"),
            QStringLiteral("b"), a, b });
    QCOMPARE(unifiedDiff(oldText, newText, QStringLiteral("a"), QStringLiteral("b")), QString::fromUtf8(gnu.out));
}

void TestTextDiff::splitJoinRoundTrip_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("lf") << QStringLiteral("a\nb\n");
    QTest::newRow("crlf") << QStringLiteral("a\r\nb\r\n");
    QTest::newRow("no final newline") << QStringLiteral("a\nb");
    QTest::newRow("empty") << QString();
    QTest::newRow("blank lines") << QStringLiteral("\n\n\n");
}

void TestTextDiff::splitJoinRoundTrip()
{
    QFETCH(QString, text);
    QCOMPARE(joinLines(splitLines(text)), text);
}

void TestTextDiff::mergeAccepted()
{
    const QStringList a = lines("1,2,3,4,5,6,7,8,9");
    const QStringList b = lines("1,X,3,4,5,6,7,Y,9,Z");
    const QList<Change> chs = changes(diffLines(a, b));
    QCOMPARE(chs.size(), 3);
    QCOMPARE(kf::textdiff::mergeAccepted(a, b, chs, { true, true, true }), b);
    QCOMPARE(kf::textdiff::mergeAccepted(a, b, chs, { false, false, false }), a);
    QCOMPARE(kf::textdiff::mergeAccepted(a, b, chs, { false, true, false }), lines("1,2,3,4,5,6,7,Y,9"));
}

void TestTextDiff::words_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<QString>("oldChanged");
    QTest::addColumn<QString>("newChanged");
    QTest::newRow("one word") << QStringLiteral("set(FA3 ON)") << QStringLiteral("set(FA3 OFF)") << QStringLiteral("ON")
                              << QStringLiteral("OFF");
    QTest::newRow("inserted words") << QStringLiteral("cmake_policy(SET CMP0169 OLD)")
                                    << QStringLiteral("  cmake_policy(SET CMP0169 OLD)") << QString()
                                    << QStringLiteral("  ");
    QTest::newRow("equal") << QStringLiteral("same") << QStringLiteral("same") << QString() << QString();
}

void TestTextDiff::words()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(QString, oldChanged);
    QFETCH(QString, newChanged);
    const WordDiff w = diffWords(a, b);
    QString o, n;
    for (const Span& s : w.oldChanged)
        o += a.mid(s.start, s.length);
    for (const Span& s : w.newChanged)
        n += b.mid(s.start, s.length);
    QCOMPARE(o, oldChanged);
    QCOMPARE(n, newChanged);
}

QTEST_GUILESS_MAIN(TestTextDiff)
#include "tst_textdiff.moc"
