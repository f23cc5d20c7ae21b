// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/destination.h"
#include "core/hosts/serverfacts.h"
#include "core/ssh/knownhosts.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

const char kEd25519[] = "AAAAC3NzaC1lZDI1NTE5AAAAIDuRexnx5j1+2XtsBKdesL3Ub+6VT0bVxHh/qtWt1bmX";

QByteArray hostPattern(FuzzInput& in)
{
    switch (in.below(8)) {
    case 0: return "[gpu1.example.com]:" + in.number();
    case 1: return "|1|" + in.raw(20).toBase64() + "|" + QByteArray(kEd25519).left(28);
    case 2: return "|1|" + in.raw(12);
    default:
        return in.pick({ "gpu1.example.com", "10.0.0.1", "*.lab.example.com", "!secret.lab.example.com", "*", "?",
            "[::1]:22", "", "h,", "," });
    }
}

// known_hosts lines: markers (known and unknown), host lists, hashed hosts with salts of
// any size, key types, base64 blobs that decode to a key, to garbage or not at all.
QByteArray knownHosts(FuzzInput& in)
{
    QByteArray out;
    const int lines = in.below(10);
    for (int l = 0; l < lines; ++l) {
        out += in.pick({ "", "", "@revoked ", "@cert-authority ", "@bogus ", "# " });
        const int hosts = 1 + in.below(3);
        for (int h = 0; h < hosts; ++h) {
            if (h)
                out += ",";
            out += hostPattern(in);
        }
        out += in.pick({ " ", "\t", "  " });
        out += in.pick({ "ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "sk-ssh-ed25519@openssh.com", "x", "" });
        out += " ";
        switch (in.below(5)) {
        case 0: out += kEd25519; break;
        case 1: out += QByteArray(kEd25519).left(in.below(int(sizeof(kEd25519)))); break;
        case 2: out += in.raw(40).toBase64(); break;
        case 3: out += "!!!notbase64!!!"; break;
        default: out += in.raw(10); break;
        }
        if (in.chance(30))
            out += " comment";
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

// The facts script's key=value block with its start/end markers, numbers at the extremes.
QByteArray facts(FuzzInput& in)
{
    QByteArray out = in.chance(90) ? "kf_facts=1\n" : "";
    const int lines = in.below(14);
    for (int l = 0; l < lines; ++l) {
        out += in.pick({ "os", "kernel", "arch", "hostname", "cpus", "cpu_model", "mem_total_kb", "mem_available_kb",
            "home", "disk_home", "nvcc", "nvcc_path", "cccl_dir", "cmake", "ninja", "gcc", "python3", "pkg_torch",
            "torch_cuda", "torch_error", "gpu", "gpu_info", "workdir", "cmakelists", "dflag_env", "disk_build", "x" });
        out += "=";
        switch (in.below(4)) {
        case 0: out += in.number(); break;
        case 1: {
            QByteArray v = in.number();
            out += v + " " + in.number();
            break;
        }
        case 2: out += "\"Debian GNU/Linux 12 (bookworm)\""; break;
        default: out += in.raw(16).replace('\n', ' '); break;
        }
        out += "\n";
    }
    if (in.chance(90))
        out += "kf_facts_end=1\n";
    return out;
}

// Destinations as people type them: users with '@', brackets, ports at the edges, paths.
QString destination(FuzzInput& in)
{
    QByteArray out = in.pick({ "", "ssh://", "" });
    const int users = in.below(3);
    for (int u = 0; u < users; ++u)
        out += in.pick({ "alice", "", "a b", "x" }) + QByteArray("@");
    out += in.chance(30) ? "[" + in.pick({ "::1", "fe80::1%eth0", "", "1:2" }) + in.pick({ "]", "" }) : hostPattern(in);
    if (in.chance(60))
        out += ":" + (in.chance(50) ? in.number() : in.raw(8));
    return QString::fromUtf8(out);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    (void)kf::parseKnownHosts(bytes, QStringLiteral("known_hosts"));
    (void)kf::parseServerFacts(bytes);
    FuzzInput in(data, size);
    (void)kf::parseKnownHosts(knownHosts(in), QStringLiteral("known_hosts"));
    (void)kf::parseServerFacts(facts(in));
    for (const auto form : { kf::DestinationForm::Port, kf::DestinationForm::Path }) {
        const QString text = destination(in);
        if (const auto d = kf::parseDestination(text, form); d && form == kf::DestinationForm::Port) {
            // What parses formats back to itself, and formatting is stable.
            const auto again = kf::parseDestination(kf::formatDestination(*d));
            if (!again || *again != *d)
                __builtin_trap();
        }
        (void)kf::hasRemoteColon(text);
    }
    return 0;
}
