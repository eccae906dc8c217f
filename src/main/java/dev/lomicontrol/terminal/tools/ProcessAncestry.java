package dev.lomicontrol.terminal.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The chain of parent processes of a pid, read from {@code /proc}: how the broker recognises the
 * terminal that hosts the calling agent (the helper's peer pid descends from that terminal's shell).
 */
public final class ProcessAncestry {

    private static final int MAX_DEPTH = 64;

    private ProcessAncestry() {}

    /** {@code pid} and its ancestors up to init; stops early where {@code /proc} cannot be read. */
    public static Set<Long> of(long pid) {
        Set<Long> chain = new LinkedHashSet<>();
        long current = pid;
        while (current > 1 && chain.size() < MAX_DEPTH && chain.add(current)) {
            current = parent(current);
        }
        return chain;
    }

    private static long parent(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
            // "pid (comm) state ppid ..." — comm may contain spaces and parentheses: split after the last ')'
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[1]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
