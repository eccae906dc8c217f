package dev.lomicontrol.ledger.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Set;

/**
 * The exclusive owner lock ({@code owner.lock}, 0600): at most one broker or maintenance process per
 * store. The holder writes its pid, purpose and start time into the file so a refused second owner
 * can tell the admin who holds it. Released explicitly after the database is closed.
 */
public final class OwnerLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private OwnerLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock or refuses with STORAGE_UNAVAILABLE naming the current holder. */
    public static OwnerLock acquire(Path file, String purpose) {
        FileChannel channel = open(file);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw StoreDirectory.unavailable(
                    "the store " + file.getParent() + " is already open in this process (pid "
                            + ProcessHandle.current().pid() + ")",
                    e);
        } catch (IOException e) {
            closeQuietly(channel);
            throw StoreDirectory.unavailable("cannot lock " + file + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            String holder = readHolder(channel);
            closeQuietly(channel);
            throw StoreDirectory.unavailable(
                    "the store " + file.getParent() + " is owned by another process (" + holder
                            + "); stop it first, or point this one at another --data-dir",
                    null);
        }
        try {
            writeHolder(channel, purpose);
        } catch (IOException e) {
            closeQuietly(channel);
            throw StoreDirectory.unavailable("cannot record the owner in " + file + ": " + e.getMessage(), e);
        }
        return new OwnerLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        closeQuietly(channel);
    }

    private static FileChannel open(Path file) {
        try {
            return FileChannel.open(
                    file,
                    Set.of(
                            StandardOpenOption.CREATE,
                            StandardOpenOption.READ,
                            StandardOpenOption.WRITE,
                            LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(StoreDirectory.FILE_MODE));
        } catch (IOException e) {
            throw StoreDirectory.unavailable("cannot open owner lock " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeHolder(FileChannel channel, String purpose) throws IOException {
        String text = "pid=" + ProcessHandle.current().pid() + " purpose=" + purpose + " since=" + Instant.now() + "\n";
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
        channel.force(true);
    }

    private static String readHolder(FileChannel channel) {
        try {
            ByteBuffer buffer = ByteBuffer.allocate(512);
            int read = channel.read(buffer, 0);
            String text = read <= 0 ? "" : new String(buffer.array(), 0, read, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? "holder unknown" : text;
        } catch (IOException e) {
            return "holder unreadable: " + e.getMessage();
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}
