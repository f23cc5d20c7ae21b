// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// libssh2's codes as a person reads them (#38): the meaning leads, libssh2's own words and the
// code follow in parentheses for support; a code with no plainer words keeps libssh2's.
#include "core/ssh/libssh2error.h"

#include <QtTest>

using namespace kf::ssh;

class TestLibssh2Error : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void lostWhileReadingLeadsWithTheMeaning()
    {
        const QString text = libssh2ErrorText(LIBSSH2_ERROR_SOCKET_RECV, QStringLiteral("transport read"));
        QCOMPARE(text,
            QStringLiteral("the connection was lost while reading (the server closed it or the network dropped) "
                           "(transport read, libssh2 error -43)"));
    }

    void everyCodeThatMeansALostLinkSaysSoInWords()
    {
        // What the reconnect banner and a failed connect show: never only "libssh2 error -N".
        for (int rc = LIBSSH2_ERROR_RANDGEN; rc < 0; ++rc) {
            if (!isLinkLost(rc))
                continue;
            QVERIFY2(!libssh2ErrorMeaning(rc).isEmpty(), qPrintable(QString::number(rc)));
            const QString text = libssh2ErrorText(rc, QStringLiteral("library words"));
            QVERIFY2(text.startsWith(libssh2ErrorMeaning(rc)), qPrintable(text));
            QVERIFY2(text.endsWith(QStringLiteral("(library words, libssh2 error %1)").arg(rc)), qPrintable(text));
        }
    }

    void loginAndRefusalsInWords()
    {
        QVERIFY(libssh2ErrorText(LIBSSH2_ERROR_AUTHENTICATION_FAILED, {})
                    .startsWith(QStringLiteral("the server did not accept")));
        QCOMPARE(libssh2ErrorText(LIBSSH2_ERROR_CHANNEL_REQUEST_DENIED, {}),
            QStringLiteral("the server refused the request (libssh2 error -22)"));
    }

    void aKeyIsWrongOnlyInLibssh2sWords()
    {
        // The Authenticator asks for a passphrase again when the error says "passphrase": that
        // is libssh2's call, never the meaning's.
        for (const int rc : { LIBSSH2_ERROR_FILE, LIBSSH2_ERROR_KEYFILE_AUTH_FAILED })
            QVERIFY(!libssh2ErrorText(rc, QStringLiteral("Invalid key data"))
                         .contains(QLatin1String("passphrase"), Qt::CaseInsensitive));
    }

    void unknownCodesKeepLibssh2sWords()
    {
        QCOMPARE(libssh2ErrorText(-1, QStringLiteral("Unable to send FXP_OPEN")),
            QStringLiteral("Unable to send FXP_OPEN (libssh2 error -1)"));
        QCOMPARE(libssh2ErrorText(-1000, {}), QStringLiteral("libssh2 error -1000"));
    }

    void noSessionIsNotConnected() { QCOMPARE(libssh2LastError(nullptr), QStringLiteral("not connected")); }
};

QTEST_GUILESS_MAIN(TestLibssh2Error)
#include "tst_libssh2error.moc"
