package dev.lomicontrol.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs mounted for one test, to fill a real disk or make it read-only. Mounting needs root
 * (CI runs as root; a container also needs CAP_SYS_ADMIN); closing unmounts it lazily.
 */
final class SmallTmpfs implements AutoCloseable {

    final Path mount;

    private SmallTmpfs(Path mount) {
        this.mount = mount;
    }

    /** Mounts a tmpfs of {@code size} (e.g. {@code "2m"}) at {@code mount}, made first. */
    static SmallTmpfs mount(Path mount, String size) throws IOException, InterruptedException {
        Files.createDirectories(mount);
        Machine.assumeRoot("mounting a small tmpfs needs root");
        assertThat(run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", mount.toString()))
                .as("mount -t tmpfs as root (a container needs CAP_SYS_ADMIN)")
                .isZero();
        return new SmallTmpfs(mount);
    }

    /** Writes {@code blocks} blocks of 64 KiB of zeros (or as many as fit) to a file {@code filler}; answers it. */
    Path fill(int blocks) throws IOException, InterruptedException {
        Path filler = mount.resolve("filler");
        run("dd", "if=/dev/zero", "of=" + filler, "bs=64k", "count=" + blocks);
        return filler;
    }

    void remountReadOnly() throws IOException, InterruptedException {
        assertThat(run("mount", "-o", "remount,ro", mount.toString())).isZero();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        run("umount", "-l", mount.toString());
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return process.waitFor(30, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
