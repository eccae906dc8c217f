package dev.lomicontrol.mcp;

import java.time.Instant;

/**
 * The helper's own diagnostics on stderr (stdout carries only protocol frames). Deliberately not a
 * logging framework: the helper must start fast, and nothing here may ever reach stdout.
 */
final class Diagnostics {

    private Diagnostics() {}

    static void info(String message) {
        log("INFO", message);
    }

    static void warn(String message) {
        log("WARN", message);
    }

    /** A command line the helper cannot run with: said plainly, for the person who wrote it. */
    static void usage(String message) {
        System.err.println("lomi-control --mcp: " + message);
    }

    static void log(String level, String message) {
        System.err.println(Instant.now() + " " + level + " lomi-control mcp: " + message);
    }
}
