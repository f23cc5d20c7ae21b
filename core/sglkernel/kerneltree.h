// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace kf {
class Transport;
}

// Where sgl-kernel's sources are below a folder a person names: an sglang checkout of either
// era, an sgl-kernel folder, or the aot folder itself. The patch plan (core/patch, a set whose
// target is "sgl-kernel"), the build profiles (core/remotebuild/buildprofile.h, kernel_tree),
// verify, the facts probe and the server hints ask this one function, so all of them find the
// same folder and say which layout it is. Blocking (a few stat calls through the Transport).
namespace kf::sglkernel {

// The layouts, newest first (the order the search tries them). Source: sglang's history:
// sgl-kernel/ held the kernels from November 2024; #32648 (2026-07-29) moved them to
// python/sglang/kernels/aot/, the wheel being sglang-kernel and the import name sgl_kernel.
enum class KernelLayout { Aot, SglKernelFolder };
struct LayoutRule
{
    KernelLayout layout;
    const char* subdir; // below an sglang checkout
    const char* name;   // in messages
};
inline constexpr LayoutRule kKernelLayouts[] = {
    { KernelLayout::Aot, "python/sglang/kernels/aot", "aot layout: sglang since 2026-07-29" },
    { KernelLayout::SglKernelFolder, "sgl-kernel", "sgl-kernel/ layout: sglang until 2026-07" },
};
const LayoutRule& layoutRule(KernelLayout layout);

// What makes a folder the kernel tree: both exist in it (the CMake project and the package).
inline constexpr const char* kKernelTreeMarkers[] = { "CMakeLists.txt", "python/sgl_kernel" };

struct KernelTree
{
    QString root;   // as given (without trailing slashes)
    QString dir;    // the tree: root, or root + "/" + subdir
    QString subdir; // empty when the root is the tree
    KernelLayout layout = KernelLayout::SglKernelFolder;
    // Where sglang's own pyproject.toml sits for this layout (it pins torch and the kernel
    // wheel); it may be absent (an sgl-kernel folder copied out of its checkout).
    QString sglangPyproject() const;
    // "python/sglang/kernels/aot below ~/sglang (aot layout: sglang since 2026-07-29)" or
    // "~/sgl-kernel (sgl-kernel/ layout: sglang until 2026-07)".
    QString describe() const;
};

struct KernelTreeSearch
{
    std::optional<KernelTree> tree;
    QStringList looked;    // the folders looked at, in order
    QStringList alsoFound; // other trees below the root (both layouts present): not used
    // "no sgl-kernel tree at ~/x: looked for CMakeLists.txt and python/sgl_kernel in ~/x,
    // ~/x/python/sglang/kernels/aot and ~/x/sgl-kernel"
    QString notFound() const;
};

// Tries the root itself, then each layout's folder below it. Fails only when the transport
// does (the connection); a root that holds no tree is a search without `tree`.
Result<KernelTreeSearch> findKernelTree(Transport& transport, const QString& root);

// Whether every one of `markers` exists below dir (a missing one is no error); also the check of
// patch sets' own markers (core/patch/targetroot.h).
Result<bool> holdsAll(Transport& transport, const QString& dir, const QStringList& markers);

// The layout of a folder that is itself a kernel tree, from its (real) path.
KernelLayout layoutOfTreePath(const QString& path);

} // namespace kf::sglkernel
