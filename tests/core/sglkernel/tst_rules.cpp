// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sglkernel/rules.h"

#include <QtTest>

namespace rules = kf::sglkernel;

class TestRules : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Which CUDA builds for which GPU: compute capability -> arch-specific target -> first CUDA.
    void cudaForArch_data()
    {
        QTest::addColumn<QString>("cc");
        QTest::addColumn<QString>("arch"); // empty: no arch-specific target
        QTest::addColumn<QString>("nvcc");
        QTest::addColumn<bool>("builds");
        QTest::newRow("H100 on 12.0") << "9.0"
                                      << "sm_90a"
                                      << "12.0.76" << true;
        QTest::newRow("H100 on 11.8") << "9.0"
                                      << "sm_90a"
                                      << "11.8.89" << false;
        QTest::newRow("B200 on 12.4") << "10.0"
                                      << "sm_100a"
                                      << "12.4.131" << false;
        QTest::newRow("B200 on 12.8") << "10.0"
                                      << "sm_100a"
                                      << "12.8.61" << true;
        QTest::newRow("RTX PRO 6000 on 12.6") << "12.0"
                                              << "sm_120a"
                                              << "12.6.85" << false;
        QTest::newRow("RTX PRO 6000 on 13.0") << "12.0"
                                              << "sm_120a"
                                              << "13.0.48" << true;
        // Newer than the table: the newest rule's CUDA is a lower bound.
        QTest::newRow("newer GPU on 12.4") << "12.1"
                                           << "sm_120a"
                                           << "12.4" << false;
        QTest::newRow("A100") << "8.0"
                              << ""
                              << "11.8" << true;
        QTest::newRow("unknown cc") << ""
                                    << ""
                                    << "12.4" << true;
    }
    void cudaForArch()
    {
        QFETCH(QString, cc);
        QFETCH(QString, arch);
        QFETCH(QString, nvcc);
        QFETCH(bool, builds);
        const rules::ArchRule* r = rules::archRuleFor(cc);
        QCOMPARE(r ? QString::fromLatin1(r->arch) : QString(), arch);
        QCOMPARE(!r || rules::cudaCanBuild(nvcc, *r), builds);
    }

    void archSwitches()
    {
        // sgl-kernel's switches live here only (verify's advice asks for them).
        QCOMPARE(rules::archSwitch("8.9"), "-DENABLE_BELOW_SM90=ON");
        QCOMPARE(rules::archSwitch("9.0"), "-DSGL_KERNEL_ENABLE_SM90A=ON");
        QCOMPARE(rules::archSwitch("10.0"), "-DSGL_KERNEL_ENABLE_SM100A=ON (CUDA >= 12.8)");
        QCOMPARE(rules::archSwitch("12.0"), "-DSGL_KERNEL_ENABLE_SM100A=ON (CUDA >= 12.8)");
        QCOMPARE(rules::archSwitch("11.0"), QString());
        QCOMPARE(rules::archSwitch("x"), QString());
    }
    void preflightJudgesSm120a()
    {
        QCOMPARE(QLatin1String(rules::preflightArch().arch), QLatin1String("sm_120a"));
        QCOMPARE(QLatin1String(rules::preflightArch().minimumCuda), QLatin1String("12.8"));
        QCOMPARE(rules::cudaRelease(QStringLiteral("13.0.48")), QStringLiteral("13.0"));
        QCOMPARE(rules::cudaRelease(QStringLiteral("12.8")), QStringLiteral("12.8"));
        QCOMPARE(rules::cudaRelease(QString()), QString());
    }

    void ccclMove_data()
    {
        QTest::addColumn<QString>("nvcc");
        QTest::addColumn<bool>("moved");
        QTest::newRow("12.9") << "12.9.86" << false;
        QTest::newRow("13.0") << "13.0" << true;
        QTest::newRow("13.0.48") << "13.0.48" << true;
        QTest::newRow("no nvcc") << "" << false;
    }
    void ccclMove()
    {
        QFETCH(QString, nvcc);
        QFETCH(bool, moved);
        QCOMPARE(rules::cudaMovedCccl(nvcc), moved);
    }

    void ccclInclude()
    {
        QVERIFY(rules::addsCcclInclude({ QStringLiteral("include_directories(${CUDAToolkit_INCLUDE_DIRS}/cccl)") }));
        QVERIFY(!rules::addsCcclInclude({ QStringLiteral("  # include_directories(.../cccl)") }));
        QVERIFY(!rules::addsCcclInclude({}));
    }

    void policyVersions_data()
    {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<QString>("cmake");
        QTest::newRow("CMP0156") << "CMP0156"
                                 << "3.29";
        QTest::newRow("CMP0167") << "CMP0167"
                                 << "3.30";
        QTest::newRow("CMP0169") << "CMP0169"
                                 << "3.30";
        QTest::newRow("CMP0177") << "CMP0177"
                                 << "3.31";
        QTest::newRow("old policy") << "CMP0077"
                                    << "";
    }
    void policyVersions()
    {
        QFETCH(QString, policy);
        QFETCH(QString, cmake);
        QCOMPARE(rules::cmakeVersionForPolicy(policy), cmake);
    }

    // cmake_policy lines in file order: a guard counts only before its SET, comments never.
    void unguardedPolicies_data()
    {
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QStringList>("unguarded");
        QTest::addColumn<QString>("cmake");
        QTest::newRow("sgl-kernel 2025") << QStringList { "cmake_minimum_required(VERSION 3.26 FATAL_ERROR)",
            "cmake_policy(SET CMP0169 OLD)", "cmake_policy(SET CMP0177 NEW)" }
                                         << QStringList { "CMP0169", "CMP0177" } << "3.31";
        QTest::newRow("guarded") << QStringList { "if(POLICY CMP0169)", "  cmake_policy(SET CMP0169 OLD)", "endif()",
            "IF (POLICY CMP0177)", "cmake_policy( set CMP0177 NEW)" }
                                 << QStringList {} << "";
        QTest::newRow("guard after the set") << QStringList { "cmake_policy(SET CMP0177 NEW)", "if(POLICY CMP0177)" }
                                             << QStringList { "CMP0177" } << "3.31";
        QTest::newRow("one of two guarded") << QStringList { "if(POLICY CMP0177)", "cmake_policy(SET CMP0177 NEW)",
            "endif()", "cmake_policy(SET CMP0169 OLD)" }
                                            << QStringList { "CMP0169" } << "3.30";
        QTest::newRow("commented out") << QStringList { "# cmake_policy(SET CMP0177 NEW)" } << QStringList {} << "";
        QTest::newRow("policy not in the table")
            << QStringList { "cmake_policy(SET CMP0077 NEW)" } << QStringList {} << "";
    }
    void unguardedPolicies()
    {
        QFETCH(QStringList, lines);
        QFETCH(QStringList, unguarded);
        QFETCH(QString, cmake);
        const rules::PolicyNeeds needs = rules::unguardedPolicies(lines);
        QCOMPARE(needs.unguarded, unguarded);
        QCOMPARE(needs.cmake, cmake);
        QCOMPARE(rules::cmakeForSglKernel(), QStringLiteral("3.31"));
    }

    void fa3_data()
    {
        QTest::addColumn<QString>("cc");
        QTest::addColumn<bool>("off");
        QTest::newRow("Hopper") << "9.0" << false;
        QTest::newRow("B200") << "10.0" << false;
        QTest::newRow("RTX PRO 6000") << "12.0" << true;
        QTest::newRow("newer") << "12.1" << true;
        QTest::newRow("unknown") << "" << false;
    }
    void fa3()
    {
        QFETCH(QString, cc);
        QFETCH(bool, off);
        QCOMPARE(rules::fa3ShouldBeOff(cc), off);
    }

    // MAX_JOBS x threads that fits, at 4 GiB a nvcc thread: threads first, then jobs.
    void budget_data()
    {
        QTest::addColumn<qint64>("availableGiB");
        QTest::addColumn<int>("wantedJobs");
        QTest::addColumn<int>("wantedThreads");
        QTest::addColumn<int>("jobs");
        QTest::addColumn<int>("threads");
        QTest::newRow("40 GB, 4 x 32") << qint64(40) << 4 << 32 << 1 << 10;
        QTest::newRow("2 GB: at least one") << qint64(2) << 4 << 32 << 1 << 1;
        QTest::newRow("roomy: as wanted") << qint64(512) << 4 << 8 << 4 << 8;
        QTest::newRow("64 GB, 4 x 8") << qint64(64) << 4 << 8 << 2 << 8;
        QTest::newRow("nothing wanted") << qint64(64) << 0 << 0 << 1 << 1;
    }
    void budget()
    {
        QFETCH(qint64, availableGiB);
        QFETCH(int, wantedJobs);
        QFETCH(int, wantedThreads);
        QFETCH(int, jobs);
        QFETCH(int, threads);
        const auto b = rules::fittingBudget(availableGiB << 30, wantedJobs, wantedThreads);
        QCOMPARE(b.maxJobs, jobs);
        QCOMPARE(b.threads, threads);
        QVERIFY(rules::bytesNeeded(b.maxJobs, b.threads) <= std::max<qint64>(availableGiB << 30, 4LL << 30));
    }

    void oomAdviceNamesWhatFits()
    {
        QCOMPARE(rules::oomAdvice(40LL << 30, 4, 32),
            QStringLiteral("4 x 32 nvcc threads need about 512 GB but 40.0 GB are available: use MAX_JOBS=1 with "
                           "CMAKE_ARGS=-DSGL_KERNEL_COMPILE_THREADS=10 (about 40 GB)."));
        QCOMPARE(rules::nvccThreadsThatFit(1490000000LL * 1024), 355);
        QCOMPARE(rules::nvccThreadsThatFit(0), 1);
    }

    // The policies read as CMake: a call over lines, comments holding parentheses, a bracket
    // comment, an else branch (not guarded).
    void unguardedPoliciesAsCMake()
    {
        const QStringList lines { "if(POLICY CMP0169) # (guard)", "  cmake_policy(SET # (why)", "    CMP0169 OLD)",
            "else()", "  cmake_policy(SET CMP0177 NEW)", "endif()", "#[[ cmake_policy(SET CMP0156 NEW) ]]" };
        const rules::PolicyNeeds needs = rules::unguardedPolicies(lines);
        QCOMPARE(needs.unguarded, QStringList { "CMP0177" });
        QCOMPARE(needs.cmake, QStringLiteral("3.31"));
    }

    void cmakeMinimum()
    {
        QCOMPARE(rules::cmakeMinimumRequired({ "# x", "cmake_minimum_required(VERSION 3.26 FATAL_ERROR)" }),
            QStringLiteral("3.26"));
        QCOMPARE(
            rules::cmakeMinimumRequired({ "cmake_minimum_required(VERSION 3.22...3.31)" }), QStringLiteral("3.22"));
        QCOMPARE(rules::cmakeMinimumRequired({ "project(x)" }), QString());
    }

    void ccclOnIncludePath()
    {
        QCOMPARE(rules::ccclOnIncludePath(QStringLiteral("/usr/local/cuda/include/cccl")),
            QStringLiteral("/usr/local/cuda/include/cccl"));
        QCOMPARE(rules::ccclOnIncludePath(QStringLiteral("/a:/usr/local/cuda-13.0/include/cccl/:")),
            QStringLiteral("/usr/local/cuda-13.0/include/cccl"));
        QCOMPARE(rules::ccclOnIncludePath(QStringLiteral("/usr/local/cuda/include")), QString());
        QVERIFY(rules::addsCcclInclude({ "include_directories(", "  # the CCCL (headers)", "  \"${X}/cccl\")" }));
        QVERIFY(!rules::addsCcclInclude({ "message(\"no cccl here\")" }));
    }

    // What the tree asks for, read from its files; sglang's own pin wins over the README.
    void treeRequirements_data()
    {
        QTest::addColumn<QStringList>("lines"); // "file|line"
        QTest::addColumn<QString>("torch");     // text(); empty: none
        QTest::addColumn<QString>("cmake");
        QTest::newRow("aot 2026") << QStringList { "README.md|Requires torch == 2.14.0",
            "README.md|- CMake \u22653.31,", "pyproject.toml|  \"torch>=2.8.0\"," }
                                  << "torch == 2.14.0 (README.md)"
                                  << "cmake >= 3.31 (README.md)";
        QTest::newRow("sglang's pin") << QStringList { "README.md|Requires torch == 2.14.0",
            "python/pyproject.toml|  \"torch==2.13.0\"," }
                                      << "torch == 2.13.0 (python/pyproject.toml)"
                                      << "";
        QTest::newRow("build requirement only")
            << QStringList { "pyproject.toml|  \"torch>=2.8.0\",", "README.md|TORCH_CHECK(arg >= 1)" }
            << "torch >= 2.8.0 (pyproject.toml)"
            << "";
        QTest::newRow("2025: nothing") << QStringList { "README.md|pip install sgl-kernel" } << ""
                                       << "";
    }
    void treeRequirements()
    {
        QFETCH(QStringList, lines);
        QFETCH(QString, torch);
        QFETCH(QString, cmake);
        QList<QPair<QString, QString>> tree;
        for (const QString& l : lines)
            tree.append({ l.section(QLatin1Char('|'), 0, 0), l.section(QLatin1Char('|'), 1) });
        QCOMPARE(rules::torchRequirement(tree) ? rules::torchRequirement(tree)->text() : QString(), torch);
        QCOMPARE(rules::cmakeRequirement(tree) ? rules::cmakeRequirement(tree)->text() : QString(), cmake);
    }

    void requirementSatisfied()
    {
        const rules::TreeRequirement pin { "torch", "==", "2.13.0", "README.md", "" };
        QVERIFY(pin.satisfiedBy(QStringLiteral("2.13.0+cu130")));
        QVERIFY(!pin.satisfiedBy(QStringLiteral("2.14.0")));
        QVERIFY(!pin.satisfiedBy(QString()));
        const rules::TreeRequirement atLeast { "cmake", ">=", "3.31", "README.md", "" };
        QVERIFY(atLeast.satisfiedBy(QStringLiteral("3.31.1")));
        QVERIFY(!atLeast.satisfiedBy(QStringLiteral("3.28.3")));
    }

    void wheelNamesOfBothEras()
    {
        QCOMPARE(
            rules::kernelWheelPackage(QStringLiteral("sglang_kernel-0.4.6.post1-cp310-abi3-manylinux2014_x86_64.whl")),
            QStringLiteral("sglang-kernel"));
        QCOMPARE(rules::kernelWheelPackage(QStringLiteral("sgl_kernel-0.3.16-cp310-abi3-linux_x86_64.whl")),
            QStringLiteral("sgl-kernel"));
        QCOMPARE(rules::kernelWheelPackage(QStringLiteral("torch-2.9.0-cp310-linux_x86_64.whl")), QString());
        QCOMPARE(rules::kernelWheelPackage(QStringLiteral("sgl_kernel-0.3.16.tar.gz")), QString());
    }
};

QTEST_GUILESS_MAIN(TestRules)
#include "tst_rules.moc"
