package dev.lomicontrol.proof.fault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The operating-system side of the faults: tmpfs mounts (we run as root in CI and on the bench
 * machine), remounts, filling a file system, and whether libfiu's tools are installed. Every
 * command is a real process; its exit status and output are returned, never hidden.
 */
final class Shell {

    /** What a command did. */
    record Result(int exitCode, String output) {

        boolean ok() {
            return exitCode == 0;
        }
    }

    private Shell() {}

    static Result run(String... command) throws IOException, InterruptedException {
        return run(List.of(command));
    }

    static Result run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile("fault-shell", ".out");
        try {
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(out.toFile())
                    .start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, command + " did not finish within 60 s");
            }
            return new Result(
                    process.exitValue(),
                    Files.readString(out, StandardCharsets.UTF_8).strip());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /**
     * Mounts a fresh tmpfs of {@code size} (e.g. {@code "4m"}) at {@code mountPoint}; the failed
     * result says why when this process may not mount (not root, no CAP_SYS_ADMIN in a container).
     */
    static Result mountTmpfs(Path mountPoint, String size) throws IOException, InterruptedException {
        Files.createDirectories(mountPoint);
        return run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs", mountPoint.toString());
    }

    /**
     * Mounts a fresh tmpfs of {@code size} at {@code mountPoint} for a fault; answers why it cannot
     * ({@code needsRoot} when this process is not root, or the refused mount's output), or {@code ""}
     * once mounted.
     */
    static String mountTmpfsOrWhyNot(Path mountPoint, String size, String needsRoot)
            throws IOException, InterruptedException {
        if (!isRoot()) {
            return needsRoot;
        }
        Result mounted = mountTmpfs(mountPoint, size);
        return mounted.ok() ? "" : "mount -t tmpfs is not permitted here: " + mounted.output();
    }

    static Result remount(Path mountPoint, String mode) throws IOException, InterruptedException {
        return run("mount", "-o", "remount," + mode, mountPoint.toString());
    }

    /** Unmounts (lazily, so a leftover process cannot keep the mount alive); for finally blocks. */
    static void unmount(Path mountPoint) {
        try {
            Result result = run("umount", "-l", mountPoint.toString());
            if (!result.ok()) {
                System.err.println("fault suite: umount " + mountPoint + " failed: " + result.output());
            }
        } catch (IOException | InterruptedException e) {
            System.err.println("fault suite: umount " + mountPoint + " failed: " + e);
        }
    }

    /** Writes zeros to {@code file} until its file system is full; answers the bytes written. */
    static long fill(Path file) throws IOException, InterruptedException {
        run("dd", "if=/dev/zero", "of=" + file, "bs=16k");
        return Files.size(file);
    }

    /** Free bytes on the file system holding {@code path}. */
    static long free(Path path) throws IOException {
        return Files.getFileStore(path).getUsableSpace();
    }

    static boolean isRoot() throws IOException, InterruptedException {
        return run("id", "-u").output().equals("0");
    }

    /** True when both {@code fiu-run} and {@code fiu-ctrl} (Debian package fiu-utils) are on the PATH. */
    static boolean fiuInstalled() throws IOException, InterruptedException {
        return run("sh", "-c", "command -v fiu-run && command -v fiu-ctrl").ok();
    }

    /** A byte-for-byte copy of a directory tree with modes and owners ({@code cp -a}). */
    static void copyTree(Path from, Path to) throws IOException, InterruptedException {
        Files.createDirectories(to);
        Result result = run("cp", "-a", from + "/.", to.toString());
        if (!result.ok()) {
            throw new IOException("cp -a " + from + " " + to + ": " + result.output());
        }
    }
}
