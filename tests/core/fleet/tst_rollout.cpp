// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/patchstep.h"
#include "core/fleet/rollout.h"

#include <QTest>

using namespace kf;
using namespace kf::fleet;

class TestRollout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fingerprintsCompareFilesNotHosts()
    {
        patch::SetPlan a;
        patch::FilePlan f;
        f.file = "csrc/a.cu";
        f.exists = true;
        f.original = "x";
        f.proposed = "y";
        f.sha256Before = "aaaa";
        f.sha256After = "bbbb";
        a.files = { f };
        a.host = "alice@gpu1:22";
        patch::SetPlan b = a;
        b.host = "alice@gpu2:22";
        QCOMPARE(fingerprint(a), fingerprint(b));
        QCOMPARE(fingerprint(a).hash().size(), 16);
        QVERIFY(describeDifferences(fingerprint(a), fingerprint(b)).isEmpty());
        b.files[0].sha256Before = "cccc";
        const QStringList d = describeDifferences(fingerprint(a), fingerprint(b));
        QCOMPARE(d.size(), 1);
        QVERIFY2(d.first().contains("csrc/a.cu") && d.first().contains("cccc"), qPrintable(d.first()));
        patch::FilePlan unchanged = f;
        unchanged.file = "other";
        unchanged.proposed = unchanged.original;
        b = a;
        b.files << unchanged; // a file the plan leaves alone does not make it another plan
        QCOMPARE(fingerprint(a), fingerprint(b));
    }
    void ansibleInventory()
    {
        HostProfile a;
        a.name = "gpu1";
        a.host = "10.0.0.11";
        a.port = 2222;
        a.user = "alice";
        a.identityFiles = { "/home/alice/.ssh/id_ed25519" };
        a.proxyJump = "bastion";
        a.tags = { "lab", "h200-rack 2" };
        HostProfile local;
        local.name = "here";
        local.isLocal = true;
        HostProfile demo;
        demo.name = "demo";
        demo.isDemo = true;
        const auto made = kf::fleet::ansibleInventory({ a, local, demo });
        QVERIFY2(made, qPrintable(made.error()));
        const QString inv = made.value();
        // Not plain: a Python string literal in shell quotes, which Ansible reads back exactly
        // (tst_cli_fleettrust runs the real ansible-inventory on such a file).
        QVERIFY2(inv.contains("gpu1 ansible_host=10.0.0.11 ansible_port=2222 ansible_user=alice "
                              "ansible_ssh_private_key_file=/home/alice/.ssh/id_ed25519 "
                              "ansible_ssh_common_args='\"-J bastion\"'\n"),
            qPrintable(inv));
        QVERIFY(inv.contains("here ansible_connection=local\n"));
        QVERIFY(!inv.contains("demo"));
        QVERIFY(inv.contains("[lab]\ngpu1\n"));
        QVERIFY(inv.contains("[h200_rack_2]\ngpu1\n"));

        // Quoting: a quote, a space, '#', a number and a keyword read back as the text.
        HostProfile b = a;
        b.name = "gpu2";
        b.user = "o'neil #1";
        b.identityFiles = { "123" };
        b.proxyJump.clear();
        b.knownHostsFile = "/home/x/known hosts/kh%h";
        b.tags.clear();
        const auto quoted = kf::fleet::ansibleInventory({ b });
        QVERIFY2(quoted, qPrintable(quoted.error()));
        QVERIFY2(quoted->contains("ansible_user='\"o\\x27neil #1\"' ansible_ssh_private_key_file='\"123\"' "
                                  "ansible_ssh_common_args='\"-o \\x27UserKnownHostsFile=\\\"/home/x/known "
                                  "hosts/kh%%h\\\"\\x27\"'\n"),
            qPrintable(quoted.value()));
    }

    // What a hostile exporter or a hand-edited hosts.yaml could put into a profile: refused,
    // naming the host, never written as a line Ansible would read otherwise.
    void ansibleInventoryRefuses_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("why");
        QTest::newRow("newline in the name") << "name"
                                             << "n1\nh2 ansible_ssh_common_args=-oProxyCommand=x"
                                             << "control character \\n";
        QTest::newRow("tab in the host") << "host"
                                         << "10.0.0.1\tx=1"
                                         << "control character \\t";
        QTest::newRow("name with a range") << "name"
                                           << "gpu[1:3]"
                                           << "inventory name";
        QTest::newRow("name with a port") << "name"
                                          << "gpu1:2222"
                                          << "inventory name";
        QTest::newRow("name with a space") << "name"
                                           << "gpu 1"
                                           << "inventory name";
        QTest::newRow("host option") << "host"
                                     << "-oProxyCommand=x"
                                     << "starts with '-'";
        QTest::newRow("jump with a shell") << "proxyJump"
                                           << "a$(touch x)@jump"
                                           << "ProxyJump";
        QTest::newRow("jump option") << "proxyJump"
                                     << "-oProxyCommand=x"
                                     << "ProxyJump";
        QTest::newRow("known hosts variable") << "knownHostsFile"
                                              << "/x/${HOME}/kh"
                                              << "${";
    }
    void ansibleInventoryRefuses()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, why);
        HostProfile p;
        p.name = "gpu1";
        p.host = "10.0.0.11";
        if (field == "name")
            p.name = value;
        else if (field == "host")
            p.host = value;
        else if (field == "proxyJump")
            p.proxyJump = value;
        else
            p.knownHostsFile = value;
        const auto made = kf::fleet::ansibleInventory({ p });
        QVERIFY(!made);
        QVERIFY2(made.error().contains(why), qPrintable(made.error()));
    }
};

QTEST_GUILESS_MAIN(TestRollout)
#include "tst_rollout.moc"
