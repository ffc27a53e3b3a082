#include "core/io/safefile.h"

#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace napkin {

namespace {

const QString kPartialSuffix = QStringLiteral(".napkin-partial");

QString systemReason(int err)
{
    return QString::fromLocal8Bit(std::strerror(err));
}

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

bool processIsGone(qint64 pid)
{
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

/// Removes ".NAME.PID.napkin-partial" files whose process no longer exists.
void removeStalePartials(const QString &path)
{
    const QFileInfo target(path);
    const QString prefix = QLatin1Char('.') + target.fileName() + QLatin1Char('.');
    const QDir dir = target.absoluteDir();
    const QStringList names = dir.entryList({prefix + QStringLiteral("*") + kPartialSuffix},
                                            QDir::Files | QDir::Hidden | QDir::System);
    for (const QString &name : names) {
        bool ok = false;
        const qint64 pid = name.mid(prefix.size(), name.size() - prefix.size() - kPartialSuffix.size()).toLongLong(&ok);
        if (ok && processIsGone(pid))
            ::unlink(encoded(dir.filePath(name)).constData());
    }
}

/// "cannot write PATH: REASON", made safe for one line here, where the path and the system's
/// words enter, so that no caller has to escape it again.
Refusal fileRefusal(const char *verb, const QString &path, const QString &why)
{
    return {QString(), printable(QStringLiteral("cannot %1 %2: %3")
                                     .arg(QLatin1String(verb), QDir::toNativeSeparators(path), why))};
}

/// "a FIFO", "a device": what a path is that Napkin neither reads nor replaces.
QString kindOf(mode_t mode)
{
    return QLatin1String(S_ISDIR(mode)    ? "a folder"
                         : S_ISFIFO(mode) ? "a FIFO"
                         : S_ISSOCK(mode) ? "a socket"
                         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
                                                          : "not a regular file");
}

/// The file a write to `path` replaces: a symbolic link is followed to the file it names (a
/// rename over the link itself would cut it, leaving its target as it was), and anything but a
/// regular file or a new name is refused by type (a rename over /dev/null would have replaced
/// the device with a file).
Result<QString> writeTarget(const QString &path)
{
    const QByteArray name = encoded(path);
    struct stat link {};
    if (::lstat(name.constData(), &link) != 0)
        return path;  // a new file (or a folder that is missing, which the write reports)
    QString target = path;
    if (S_ISLNK(link.st_mode)) {
        char *resolved = ::realpath(name.constData(), nullptr);
        if (!resolved)
            return fileRefusal("write", path, QStringLiteral("it is a link to %1, which cannot be reached (%2)")
                                                  .arg(QFileInfo(path).symLinkTarget(), systemReason(errno)));
        target = QFile::decodeName(resolved);
        std::free(resolved);
    }
    struct stat st {};
    if (::stat(encoded(target).constData(), &st) == 0 && !S_ISREG(st.st_mode))
        return fileRefusal("write", path, QStringLiteral("it is %1, not a regular file").arg(kindOf(st.st_mode)));
    return target;
}

/// Writes one temporary completely; on failure it is removed and the refusal says why.
std::optional<Refusal> writePartial(const QString &finalPath, const QString &partial, const QByteArray &bytes)
{
    const auto fail = [&](int err) { return fileRefusal("write", finalPath, systemReason(err)); };
    const QByteArray name = encoded(partial);
    const int fd = ::open(name.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0)
        return fail(errno);
    // Keep the permissions of the file being replaced.
    struct stat old {};
    if (::stat(encoded(finalPath).constData(), &old) == 0 && S_ISREG(old.st_mode))
        ::fchmod(fd, old.st_mode & 07777);
    const char *data = bytes.constData();
    qint64 left = bytes.size();
    int err = 0;
    while (left > 0) {
        const ssize_t n = ::write(fd, data, static_cast<size_t>(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = n < 0 ? errno : ENOSPC;
            break;
        }
        data += n;
        left -= n;
    }
    if (err == 0 && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS)
        err = errno;
    if (::close(fd) != 0 && err == 0)
        err = errno;
    if (err != 0) {
        ::unlink(name.constData());
        return fail(err);
    }
    return std::nullopt;
}

} // namespace

QString partialFileName(const QString &path, qint64 pid)
{
    const QFileInfo target(path);
    return target.absoluteDir().filePath(QLatin1Char('.') + target.fileName() + QLatin1Char('.')
                                         + QString::number(pid) + kPartialSuffix);
}

std::optional<Refusal> writeFilesAtomically(const QList<FileContents> &files)
{
    // A full disk under `ulimit -f` would otherwise end the process with SIGXFSZ; ignored, the
    // write fails with EFBIG and is reported like any other.
    std::signal(SIGXFSZ, SIG_IGN);
    QStringList partials;
    const auto removePartials = [&] {
        for (const QString &p : partials)
            ::unlink(encoded(p).constData());
    };
    QList<FileContents> targets;
    for (const FileContents &given : files) {
        if (given.path.isEmpty())
            return Refusal{QString(), QStringLiteral("cannot write a file with an empty name")};
        Result<QString> target = writeTarget(given.path);
        if (!target.ok())
            return target.refusal();
        targets.append({*target, given.bytes});
    }
    for (const FileContents &f : targets) {
        removeStalePartials(f.path);
        const QString partial = partialFileName(f.path, ::getpid());
        if (auto refused = writePartial(f.path, partial, f.bytes)) {
            removePartials();
            return refused;
        }
        partials << partial;
    }
    // Every previous file is kept under a second name (a hard link) until all the new ones are
    // in place, so a rename that fails puts back the ones already replaced: all or none.
    QStringList previous;
    for (const FileContents &f : targets) {
        const QString backup = partialFileName(f.path + QStringLiteral(".previous"), ::getpid());
        removeStalePartials(f.path + QStringLiteral(".previous"));
        ::unlink(encoded(backup).constData());
        const bool kept = ::link(encoded(f.path).constData(), encoded(backup).constData()) == 0;
        previous << (kept ? backup : QString());
    }
    const auto dropPrevious = [&] {
        for (const QString &b : previous)
            if (!b.isEmpty())
                ::unlink(encoded(b).constData());
    };
    for (qsizetype i = 0; i < targets.size(); ++i) {
        if (::rename(encoded(partials[i]).constData(), encoded(targets[i].path).constData()) != 0) {
            const int err = errno;
            for (qsizetype j = 0; j < i; ++j) {
                const QByteArray target = encoded(targets[j].path);
                if (previous[j].isEmpty())
                    ::unlink(target.constData());  // there was none before
                else
                    ::rename(encoded(previous[j]).constData(), target.constData());
            }
            removePartials();
            dropPrevious();
            return fileRefusal("write", files[i].path, systemReason(err));
        }
    }
    dropPrevious();
    return std::nullopt;
}

std::optional<Refusal> writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    return writeFilesAtomically({FileContents{path, bytes}});
}

Result<QByteArray> readSmallRegularFile(const QString &path, qint64 maxBytes)
{
    const auto fail = [&](const QString &why) { return fileRefusal("read", path, why); };
    if (path.isEmpty())
        return fail(QStringLiteral("the file name is empty"));
    const QByteArray name = encoded(path);
    struct stat st {};
    if (::stat(name.constData(), &st) != 0)
        return fail(systemReason(errno));
    const auto notRegular = [&](mode_t mode) { return fail(QStringLiteral("it is %1, not a regular file").arg(kindOf(mode))); };
    const QString tooLarge = QStringLiteral("it is larger than the %1-byte limit (%2 MiB)")
                                 .arg(maxBytes).arg(static_cast<double>(maxBytes) / (1024.0 * 1024.0));
    if (!S_ISREG(st.st_mode))
        return notRegular(st.st_mode);
    if (st.st_size > maxBytes)
        return fail(tooLarge);
    // O_NONBLOCK: if the path became a FIFO since stat(), open() must still not wait for a writer.
    const int fd = ::open(name.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(systemReason(errno));
    struct stat opened {};
    if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode)) {
        ::close(fd);
        return notRegular(opened.st_mode);
    }
    // Read at most one byte past the limit: files such as those under /proc report size 0.
    QByteArray bytes(static_cast<qsizetype>(maxBytes + 1), Qt::Uninitialized);
    qint64 got = 0;
    while (got < maxBytes + 1) {
        const ssize_t n = ::read(fd, bytes.data() + got, static_cast<size_t>(maxBytes + 1 - got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return fail(systemReason(err));
        }
        if (n == 0)
            break;
        got += n;
    }
    ::close(fd);
    if (got > maxBytes)
        return fail(tooLarge);
    bytes.truncate(static_cast<qsizetype>(got));
    return bytes;
}

} // namespace napkin
