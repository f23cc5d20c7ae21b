// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshkeyfile.h"

namespace kf {
namespace {

// Reads an SSH wire-format string at *pos; false when it does not fit.
bool readString(const QByteArray& b, qsizetype* pos, QByteArray* out)
{
    if (*pos + 4 > b.size())
        return false;
    const quint32 len = (quint32(quint8(b[*pos])) << 24) | (quint32(quint8(b[*pos + 1])) << 16)
        | (quint32(quint8(b[*pos + 2])) << 8) | quint32(quint8(b[*pos + 3]));
    *pos += 4;
    if (qsizetype(len) > b.size() - *pos)
        return false;
    *out = b.mid(*pos, qsizetype(len));
    *pos += qsizetype(len);
    return true;
}

QByteArray pemBody(const QByteArray& text, const QByteArray& label)
{
    const QByteArray begin = "-----BEGIN " + label + "-----";
    const QByteArray end = "-----END " + label + "-----";
    const qsizetype b = text.indexOf(begin);
    const qsizetype e = text.indexOf(end);
    if (b < 0 || e < b)
        return {};
    return text.mid(b + begin.size(), e - b - begin.size());
}

} // namespace

SshKeyFileInfo inspectPrivateKey(const QByteArray& text)
{
    SshKeyFileInfo info;
    if (text.contains("-----BEGIN OPENSSH PRIVATE KEY-----")) {
        info.format = SshKeyFileInfo::Format::OpenSsh;
        QByteArray body = pemBody(text, "OPENSSH PRIVATE KEY");
        body.replace('\n', QByteArray()).replace('\r', QByteArray()).replace(' ', QByteArray());
        const QByteArray raw = QByteArray::fromBase64(body);
        static const QByteArray magic("openssh-key-v1\0", 15);
        if (!raw.startsWith(magic))
            return info;
        qsizetype pos = magic.size();
        QByteArray cipher, kdf, kdfOptions, pub;
        if (!readString(raw, &pos, &cipher) || !readString(raw, &pos, &kdf) || !readString(raw, &pos, &kdfOptions))
            return info;
        info.encrypted = cipher != "none";
        pos += 4; // number of keys
        if (readString(raw, &pos, &pub)) {
            qsizetype p2 = 0;
            QByteArray type;
            if (readString(pub, &p2, &type))
                info.keyType = QString::fromLatin1(type);
        }
        return info;
    }
    struct Pem
    {
        const char* label;
        const char* type;
    };
    for (const Pem& pem : { Pem { "RSA PRIVATE KEY", "ssh-rsa" }, Pem { "EC PRIVATE KEY", "ecdsa" },
             Pem { "DSA PRIVATE KEY", "ssh-dss" } }) {
        if (text.contains(QByteArray(QByteArray("-----BEGIN ") + pem.label + "-----"))) {
            info.format = SshKeyFileInfo::Format::Pem;
            info.keyType = QString::fromLatin1(pem.type);
            info.encrypted = text.contains("Proc-Type: 4,ENCRYPTED");
            return info;
        }
    }
    if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
        info.format = SshKeyFileInfo::Format::Pkcs8;
        info.encrypted = true;
    } else if (text.contains("-----BEGIN PRIVATE KEY-----")) {
        info.format = SshKeyFileInfo::Format::Pkcs8;
    }
    return info;
}

} // namespace kf
