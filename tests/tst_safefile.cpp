// The one path Napkin reads and writes files through (core/io/safefile.h): complete files or
// none, the previous file intact on failure, devices and FIFOs refused without blocking.
// Full-disk cases that need `ulimit -f` run as processes in tests/faults.sh.
#include "core/io/safefile.h"
#include "core/io/scenariojson.h"
#include "core/model/validation.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace napkin;

namespace {

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

} // namespace

class TestSafeFile final : public QObject
{
    Q_OBJECT

private slots:
    void writesAndReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.json"));
        const auto first = writeFileAtomically(path, "first");
        QVERIFY2(!first, qPrintable(messageOf(first)));
        const auto second = writeFileAtomically(path, "second");
        QVERIFY2(!second, qPrintable(messageOf(second)));
        QCOMPARE(contents(path), QByteArray("second"));
        // Nothing but the file itself is left in the folder.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("a.json")});
    }

    void keepsPermissionsOfTheReplacedFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.json"));
        QVERIFY(!writeFileAtomically(path, "x"));
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        QVERIFY(!writeFileAtomically(path, "y"));
        struct stat st {};
        QVERIFY(::stat(QFile::encodeName(path).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0640));
    }

    // A multi-file write where one file cannot be written leaves no new file under a final
    // name and the previous ones untouched.
    void allOrNothing()
    {
        QTemporaryDir dir;
        const QString kept = dir.filePath(QStringLiteral("memory.png"));
        QVERIFY(!writeFileAtomically(kept, "old"));
        const auto refused = writeFilesAtomically({{kept, "new"},
                                                   {dir.filePath(QStringLiteral("time.png")), "new"},
                                                   {dir.filePath(QStringLiteral("no/such/dir/roofline.png")), "new"}});
        QVERIFY(refused);
        const QString error = refused->message();
        QVERIFY2(error.contains(QLatin1String("roofline.png")) && error.contains(QLatin1String("No such file or directory")),
                 qPrintable(error));
        QCOMPARE(contents(kept), QByteArray("old"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("time.png"))));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("memory.png")});
    }

    // A temporary left by a process that was killed is removed by the next write of that name;
    // one of a process still running is left alone.
    void staleTemporariesAreRemoved()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        const pid_t child = ::fork();
        if (child == 0)
            ::_exit(0);
        QVERIFY(child > 0);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);  // the child's pid is now free
        const QString stale = partialFileName(path, child);
        const QString live = partialFileName(path, ::getppid());
        for (const QString &p : {stale, live}) {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("partial");
        }
        QVERIFY(!writeFileAtomically(path, "complete"));
        QVERIFY(!QFile::exists(stale));
        QVERIFY(QFile::exists(live));
        QVERIFY(QFileInfo(stale).fileName().startsWith(QLatin1String(".run.json.")));
    }

    // A full disk (here a file-size limit of 0 bytes, as `ulimit -f 0`) fails the save, names
    // the system's reason and leaves the previous scenario byte-for-byte intact.
    void fullDiskKeepsThePreviousScenario()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("run.json"));
        Scenario before;
        before.model.layers = 7;
        QVERIFY(!writeScenarioFile(path, before));
        const QByteArray old = contents(path);
        int pipeFds[2];
        QVERIFY(::pipe(pipeFds) == 0);
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(pipeFds[0]);
            struct rlimit limit {0, 0};
            ::setrlimit(RLIMIT_FSIZE, &limit);
            Scenario after;
            after.model.layers = 9;
            const auto refused = writeScenarioFile(path, after);
            const bool ok = !refused;
            const QByteArray message = refused ? refused->message().toUtf8() : QByteArray();
            [[maybe_unused]] const auto n = ::write(pipeFds[1], message.constData(), static_cast<size_t>(message.size()));
            ::_exit(ok ? 0 : 1);
        }
        ::close(pipeFds[1]);
        QByteArray message;
        char buffer[512];
        for (ssize_t n; (n = ::read(pipeFds[0], buffer, sizeof buffer)) > 0;)
            message.append(buffer, n);
        ::close(pipeFds[0]);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status), "the child was killed (SIGXFSZ not ignored?)");
        QCOMPARE(WEXITSTATUS(status), 1);
        QVERIFY2(message.contains("File too large"), message.constData());
        QCOMPARE(contents(path), old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("run.json")});
    }

    void refusedReads_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("reason");
        QTest::newRow("endless device") << QStringLiteral("/dev/zero") << QStringLiteral("it is a device, not a regular file");
        QTest::newRow("random device") << QStringLiteral("/dev/urandom") << QStringLiteral("it is a device, not a regular file");
        QTest::newRow("folder") << QStringLiteral("/") << QStringLiteral("it is a folder, not a regular file");
        QTest::newRow("missing") << QStringLiteral("/nonexistent/x.json") << QStringLiteral("No such file or directory");
        QTest::newRow("empty name") << QString() << QStringLiteral("the file name is empty");
    }

    void refusedReads()
    {
        QFETCH(QString, path);
        QFETCH(QString, reason);
        const auto refused = readSmallRegularFile(path, kMaxScenarioFileBytes);
        QVERIFY(!refused.ok());
        const QString error = refused.refusalMessage();
        QVERIFY2(error.endsWith(reason), qPrintable(error));
    }

    // A FIFO with no writer would block open() forever; it is refused by its type first.
    void fifoIsRefusedWithoutBlocking()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const auto refused = readSmallRegularFile(fifo, kMaxScenarioFileBytes);
        QVERIFY(!refused.ok());
        const QString error = refused.refusalMessage();
        QVERIFY2(error.endsWith(QLatin1String("it is a FIFO, not a regular file")), qPrintable(error));
    }

    // A write never replaces what is not a regular file: a FIFO (or a device, as /dev/null
    // for root) stays as it was, refused by type; a symbolic link is written through, its
    // target replaced and the link kept (a rename over the link had cut it).
    void writesRefuseSpecialFilesAndFollowLinks()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        const auto refused = writeFileAtomically(fifo, "x");
        QVERIFY(refused);
        QVERIFY2(refused->message().endsWith(QLatin1String("it is a FIFO, not a regular file")), qPrintable(refused->message()));
        struct stat st {};
        QVERIFY(::lstat(QFile::encodeName(fifo).constData(), &st) == 0 && S_ISFIFO(st.st_mode));
        // In a multi-file write the refusal comes before any file is touched.
        const QString kept = dir.filePath(QStringLiteral("memory.png"));
        QVERIFY(!writeFileAtomically(kept, "old"));
        QVERIFY(writeFilesAtomically({{kept, "new"}, {fifo, "new"}}));
        QCOMPARE(contents(kept), QByteArray("old"));

        const QString target = dir.filePath(QStringLiteral("target.json"));
        const QString link = dir.filePath(QStringLiteral("link.json"));
        QVERIFY(!writeFileAtomically(target, "old"));
        QVERIFY(::symlink("target.json", QFile::encodeName(link).constData()) == 0);
        const auto through = writeFileAtomically(link, "new");
        QVERIFY2(!through, qPrintable(messageOf(through)));
        QCOMPARE(contents(target), QByteArray("new"));
        QVERIFY(::lstat(QFile::encodeName(link).constData(), &st) == 0 && S_ISLNK(st.st_mode));
        // A link to nowhere is refused, not replaced.
        const QString dangling = dir.filePath(QStringLiteral("dangling.json"));
        QVERIFY(::symlink("missing/x.json", QFile::encodeName(dangling).constData()) == 0);
        const auto nowhere = writeFileAtomically(dangling, "x");
        QVERIFY(nowhere);
        QVERIFY2(nowhere->message().contains(QLatin1String("cannot be reached")), qPrintable(nowhere->message()));
        QVERIFY(::lstat(QFile::encodeName(dangling).constData(), &st) == 0 && S_ISLNK(st.st_mode));
        QVERIFY(QDir(dir.path()).entryList({QStringLiteral("*.napkin-partial")}, QDir::Files | QDir::Hidden | QDir::System).isEmpty());
    }

    void sizeLimit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.json"));
        QVERIFY(!writeFileAtomically(path, QByteArray(kMaxScenarioFileBytes + 1, ' ')));
        const auto refused = readSmallRegularFile(path, kMaxScenarioFileBytes);
        QVERIFY(!refused.ok());
        const QString error = refused.refusalMessage();
        QVERIFY2(error.contains(QLatin1String("larger than the 1048576-byte limit (1 MiB)")), qPrintable(error));
        QVERIFY(!writeFileAtomically(path, QByteArray(kMaxScenarioFileBytes, ' ')));
        QCOMPARE(readSmallRegularFile(path, kMaxScenarioFileBytes)->size(), kMaxScenarioFileBytes);
        // Files that report size 0 but have contents (procfs) are read up to the limit.
        QVERIFY(readSmallRegularFile(QStringLiteral("/proc/self/status"), kMaxScenarioFileBytes)->size() > 0);
    }

    // What the user typed comes back escaped, so a refusal is always one line.
    void refusalsAreOneLine_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("key with a newline") << QByteArray("{\"lay\\ners\": 1}");
        QTest::newRow("value with a newline") << QByteArray("{\"recompute\": \"a\\nb\\u2028c\"}");
        QTest::newRow("escape sequence") << QByteArray("{\"arch\": \"\\u001b[31mred\"}");
    }

    void refusalsAreOneLine()
    {
        QFETCH(QByteArray, json);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("odd\nname.json"));
        QVERIFY(!writeFileAtomically(path, json));
        const auto refused = readScenarioFile(path, Scenario{});
        QVERIFY(!refused.ok());
        const Refusal &e = refused.refusal();
        const QString message = e.message();
        QVERIFY2(!message.contains(QLatin1Char('\n')) && !message.contains(QChar(0x2028))
                     && !message.contains(QChar(0x1b)),
                 qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("\\n")) || message.contains(QLatin1String("\\x")), qPrintable(message));
    }

    void printableEscapes()
    {
        QCOMPARE(printable(QStringLiteral("a\nb\tc\x1b")), QStringLiteral("a\\nb\\tc\\x1b"));
        QCOMPARE(printable(QString(300, QLatin1Char('x'))).size(), 201);
        QCOMPARE(printable(QString(300, QLatin1Char('x')), -1).size(), 300);
    }
};

QTEST_GUILESS_MAIN(TestSafeFile)
#include "tst_safefile.moc"
