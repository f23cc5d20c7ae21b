// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// loginshell::line() run by each real login shell's `-c`, as sshd runs it: the script and its
// arguments arrive byte for byte.
#include "core/util/loginshell.h"
#include "core/util/shellquote.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QtTest>

using namespace kf;

class TestLoginShell : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sameBytesUnderEveryShell_data()
    {
        QTest::addColumn<QString>("shell");
        for (const char* s : { "/bin/bash", "/bin/dash", "/usr/bin/zsh", "/usr/bin/fish", "/usr/bin/tcsh" })
            QTest::newRow(s) << QString::fromLatin1(s);
    }
    void sameBytesUnderEveryShell()
    {
        QFETCH(QString, shell);
        if (!QFile::exists(shell))
            QSKIP("shell not installed (scripts/bootstrap installs zsh, fish and tcsh)");
        const QString script
            = QStringLiteral("printf '[%s]\\n' \"$@\"\necho \"$#\" 'it'\\''s' \"!x\" 100%\n"
                             "for i in 1 2; do\n  echo \"l$i\"\ndone\nprintf '%s\\n' \"\\\\ \\$HOME `echo b`\"");
        const QList<QByteArray> args { "a b", "", "c\n\n", "-n", "it's \\\\ !x %d $HOME `id`", "\t\xc3\xa9\x01" };
        const QByteArray line = loginshell::line(script, args);
        for (const char c : line) // what the login shell sees: printable ASCII only
            QVERIFY(c >= 0x20 && c < 0x7f);
        const auto r = test::runProgram(shell, { QStringLiteral("-c"), QString::fromLatin1(line) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out,
            QByteArray("[a b]\n[]\n[c\n\n]\n[-n]\n[it's \\\\ !x %d $HOME `id`]\n[\t\xc3\xa9\x01]\n6 it's !x 100%\n"
                       "l1\nl2\n\\ $HOME b\n"));
        QCOMPARE(r.err, QByteArray());
    }

    void encodeIsPrintf()
    {
        QCOMPARE(loginshell::encode("-a'b\\c!d\"e$f`g%h\ni"),
            QByteArray("\\055a\\047b\\134c\\041d\\042e\\044f\\140g%%h\\012i"));
    }

    void envNames()
    {
        QVERIFY(kf::isShellName(QStringLiteral("HF_TOKEN")));
        QVERIFY(kf::isShellName(QStringLiteral("_x9")));
        for (const char* bad : { "", "9A", "A-B", "A=B", "A\n", "A B", "-A" })
            QVERIFY2(!kf::isShellName(QString::fromLatin1(bad)), bad);
        QVERIFY(!kf::isShellName(QString::fromLatin1("A\0", 2)));
    }
};

QTEST_GUILESS_MAIN(TestLoginShell)
#include "tst_loginshell.moc"
