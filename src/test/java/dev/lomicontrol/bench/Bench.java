package dev.lomicontrol.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** What the benchmarks' {@code main}s share: logging, progress notes, number format, clean-up. */
final class Bench {

    private Bench() {}

    /**
     * Plain logback (no Spring Boot here) would log to stdout; point it at the product's stderr-only
     * configuration and keep it at WARN so the table stays readable ({@code -Dbench.log=INFO} for more).
     */
    static void configureLogging() {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "logback-spring.xml");
        }
        org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger) {
            ((ch.qos.logback.classic.Logger) root)
                    .setLevel(ch.qos.logback.classic.Level.toLevel(System.getProperty("bench.log", "WARN")));
        }
    }

    /** A progress line on stderr (the report goes to stdout). */
    static void note(String text) {
        System.err.println("[bench] " + text);
    }

    static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** What {@code command} printed (stdout and stderr, stripped), or {@code ""} when it failed or could not run. */
    static String run(String... command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? text.strip() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    static String firstLine(String text) {
        return text.lines().findFirst().orElse("").trim();
    }

    /** Deletes {@code root} and everything below it, if it exists. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
