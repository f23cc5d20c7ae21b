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
        const QString inv = kf::fleet::ansibleInventory({ a, local, demo });
        QVERIFY2(inv.contains("gpu1 ansible_host=10.0.0.11 ansible_port=2222 ansible_user=alice "
                              "ansible_ssh_private_key_file=/home/alice/.ssh/id_ed25519 "
                              "ansible_ssh_common_args='-J bastion'\n"),
            qPrintable(inv));
        QVERIFY(inv.contains("here ansible_connection=local\n"));
        QVERIFY(!inv.contains("demo"));
        QVERIFY(inv.contains("[lab]\ngpu1\n"));
        QVERIFY(inv.contains("[h200_rack_2]\ngpu1\n"));
    }
};

QTEST_GUILESS_MAIN(TestRollout)
#include "tst_rollout.moc"
