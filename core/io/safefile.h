#pragma once

#include "core/model/refusal.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace napkin {

/// The largest scenario file Napkin reads (a saved scenario is under 2 KiB).
constexpr qint64 kMaxScenarioFileBytes = 1024 * 1024;

/// One file's complete new contents.
struct FileContents {
    QString path;
    QByteArray bytes;
};

/// The one path every file Napkin writes goes through. Each file is written to a temporary
/// beside its final name (".NAME.PID.napkin-partial"), every write, the flush and fsync are
/// checked, and only when all files are complete are they renamed into place. On any failure
/// the temporaries are removed, no final name is touched, and the refusal names the path and the
/// system's reason ("No space left on device") on one line, control characters escaped
/// (printable()). Temporaries left by a killed Napkin (their
/// process is gone) are removed on the next write of the same name. A symbolic link is written
/// through (the file it names is replaced, the link kept); a name that is a folder, FIFO, socket
/// or device is refused by type, left as it is.
std::optional<Refusal> writeFilesAtomically(const QList<FileContents> &files);

/// writeFilesAtomically() for one file.
std::optional<Refusal> writeFileAtomically(const QString &path, const QByteArray &bytes);

/// Reads a small regular file whole, never blocking and never reading more than maxBytes:
/// directories, FIFOs, sockets and devices are refused by type before they are opened, and a
/// file over the limit is refused with the limit named.
Result<QByteArray> readSmallRegularFile(const QString &path, qint64 maxBytes);

/// The temporary name writeFilesAtomically() uses for `path` in process `pid`.
QString partialFileName(const QString &path, qint64 pid);

} // namespace napkin
