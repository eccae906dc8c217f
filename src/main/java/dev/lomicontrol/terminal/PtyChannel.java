package dev.lomicontrol.terminal;

import com.pty4j.PtyProcess;
import com.pty4j.WinSize;
import com.pty4j.unix.CLibrary;
import com.pty4j.unix.UnixPtyProcess;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One shell's PTY master: blocking reads for the reader thread, and ordered writes. Writers hold
 * {@link #lock()} for a whole logical write, so a command or an input is one contiguous write.
 * Replies to terminal queries (from the screen emulator) are queued and written by whoever holds or
 * next takes the write lock, so the reader thread never blocks behind a long write.
 */
final class PtyChannel {

    /** A write that failed; {@code written} bytes had reached the PTY before it did. */
    static final class WriteFailure extends Exception {

        private static final long serialVersionUID = 1L;

        final long written;

        WriteFailure(String message, long written) {
            super(message);
            this.written = written;
        }
    }

    private final PtyProcess process;
    private final InputStream input;
    private final int masterFd;
    private final ReentrantLock writes = new ReentrantLock();
    private final Queue<byte[]> replies = new ConcurrentLinkedQueue<>();
    private boolean closed;
    private volatile long totalWritten; // updated under the write lock only
    private final boolean sandboxed;

    /** {@code sandboxed}: the process is bubblewrap, and the shell is the first descendant that is not. */
    PtyChannel(PtyProcess process, boolean sandboxed) {
        this.process = process;
        this.sandboxed = sandboxed;
        this.input = process.getInputStream();
        this.masterFd = ((UnixPtyProcess) process).getPty().getMasterFD();
    }

    /** The process started in the PTY (bubblewrap when sandboxed): what signals and ancestry checks use. */
    long pid() {
        return process.pid();
    }

    /** The shell itself: the PTY's process, or inside a sandbox the first descendant that is not bubblewrap. */
    long shellPid() {
        if (!sandboxed) {
            return process.pid();
        }
        return ProcessHandle.of(process.pid())
                .flatMap(outer -> outer.descendants()
                        .filter(p -> !p.info().command().orElse("bwrap").endsWith("/bwrap"))
                        .findFirst())
                .map(ProcessHandle::pid)
                .orElse(process.pid());
    }

    /** Blocks until output arrives; -1 once the shell has exited and its output is drained. */
    int read(byte[] buffer) throws IOException {
        return input.read(buffer, 0, buffer.length);
    }

    void lock() {
        writes.lock();
    }

    /** Releases the write lock, then writes any queued replies. */
    void unlock() {
        writes.unlock();
        flushReplies();
    }

    /** Writes all of {@code data}; the caller holds {@link #lock()}. */
    void write(byte[] data) throws WriteFailure {
        if (!writes.isHeldByCurrentThread()) {
            throw new IllegalStateException("write without the write lock");
        }
        if (closed) {
            throw new WriteFailure("the terminal is closed", 0);
        }
        int done = 0;
        while (done < data.length) {
            byte[] rest = done == 0 ? data : Arrays.copyOfRange(data, done, data.length);
            int n = CLibrary.write(masterFd, rest, rest.length);
            if (n > 0) {
                done += n;
                totalWritten += n;
            } else if (n < 0 && CLibrary.errno() == CLibrary.EINTR) {
                continue;
            } else {
                throw new WriteFailure("write to the PTY failed (errno " + CLibrary.errno() + ")", done);
            }
        }
    }

    /** Bytes written to the PTY so far (commands, input, interrupts and query replies). */
    long bytesWritten() {
        return totalWritten;
    }

    /** Queues bytes the screen emulator wants to answer with; written as soon as no write is in progress. */
    void reply(byte[] data) {
        replies.add(data);
        flushReplies();
    }

    private void flushReplies() {
        while (!replies.isEmpty() && writes.tryLock()) {
            try {
                for (byte[] reply = replies.poll(); reply != null; reply = replies.poll()) {
                    write(reply);
                }
            } catch (WriteFailure e) {
                replies.clear();
            } finally {
                writes.unlock();
            }
        }
    }

    void resize(int columns, int rows) {
        process.setWinSize(new WinSize(columns, rows));
    }

    void hangup() {
        if (process.isAlive()) {
            ((UnixPtyProcess) process).hangup();
        }
    }

    void forceKill() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** The shell's exit status (128 + signal when a signal ended it); waits briefly for the reaper. */
    int awaitExitCode() throws InterruptedException {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return process.waitFor();
    }

    /** Releases the master after the shell has exited; later writes fail. */
    void close() {
        writes.lock();
        try {
            closed = true;
            closeQuietly(process.getInputStream());
            closeQuietly(process.getOutputStream());
            closeQuietly(process.getErrorStream());
        } finally {
            writes.unlock();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // already closed or never opened: nothing to release
        }
    }
}
