package dev.lomicontrol.browser;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * One headless Chromium process with its own fresh profile directory (0700, deleted on close),
 * reachable only through the pipe this object holds: Chromium is started with
 * {@code --remote-debugging-pipe}, and a {@code /bin/sh} trampoline moves the JVM's pipes to the
 * browser's fds 3 and 4 (Java's ProcessBuilder wires only 0-2), so no port and no socket exists.
 */
final class Chromium implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Chromium.class);

    /**
     * The flags every browser starts with (headless, no GPU, no background traffic of its own, no new
     * windows: {@code window.open} and {@code target=_blank} open nothing, as no tool could see a
     * popup and the page session's auto-attach does not reach one; no shared workers, related to no
     * page and so never attached either — security review 2026-12-06, N12).
     */
    static final List<String> FLAGS = List.of(
            "--remote-debugging-pipe",
            "--headless",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-extensions",
            "--mute-audio",
            "--block-new-web-contents",
            "--disable-blink-features=SharedWorker",
            "--no-default-browser-check",
            "--password-store=basic",
            "--window-size=1280,800");

    private final Process process;
    private final CdpConnection cdp;
    private final Path profile;
    private final String profileId;
    private final Duration commandTimeout;
    private final Map<String, Consumer<JsonNode>> sessions = new ConcurrentHashMap<>();
    private volatile Runnable onExit = () -> {};

    private Chromium(Process process, Path profile, String profileId, Duration commandTimeout) {
        this.process = process;
        this.profile = profile;
        this.profileId = profileId;
        this.commandTimeout = commandTimeout;
        this.cdp = new CdpConnection(
                process.getInputStream(),
                process.getOutputStream(),
                this::event,
                PageEvents.READ::contains,
                "lomi-chromium-" + profileId);
        drain(process.getErrorStream(), profileId);
    }

    /** Starts Chromium on a fresh profile and waits until it answers; DEADLINE_EXCEEDED or HOST_UNQUALIFIED when it does not start. */
    static Chromium launch(Path executable, String profileId, Duration startTimeout, Duration commandTimeout) {
        Path profile;
        try {
            profile = Files.createTempDirectory(
                    "lomi-browser-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new LomiException(
                    ErrorCode.STORAGE_UNAVAILABLE, "cannot create a browser profile directory: " + e.getMessage(), e);
        }
        List<String> command = new ArrayList<>(
                List.of("/bin/sh", "-c", "exec \"$0\" \"$@\" 3<&0 4>&1 </dev/null >/dev/null", executable.toString()));
        command.addAll(FLAGS);
        if (isRoot()) {
            command.add("--no-sandbox"); // Chromium's own sandbox refuses to run as root
        }
        command.add("--user-data-dir=" + profile);
        command.add("about:blank");
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment()
                    .keySet()
                    .removeIf(name -> !List.of("PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR")
                            .contains(name));
            builder.environment().put("HOME", profile.toString());
            process = builder.start();
        } catch (IOException e) {
            deleteTree(profile);
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED, "cannot start " + executable + ": " + e.getMessage(), e);
        }
        Chromium chromium = new Chromium(process, profile, profileId, commandTimeout);
        try {
            chromium.send(null, "Browser.getVersion", null, startTimeout);
        } catch (LomiException e) {
            chromium.close();
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED, "Chromium (" + executable + ") did not start: " + e.getMessage(), e);
        }
        return chromium;
    }

    String profileId() {
        return profileId;
    }

    Path profile() {
        return profile;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive() && cdp.isOpen();
    }

    void onExit(Runnable action) {
        this.onExit = action;
    }

    JsonNode send(@Nullable String sessionId, String method, @Nullable ObjectNode params) {
        return send(sessionId, method, params, commandTimeout);
    }

    JsonNode send(@Nullable String sessionId, String method, @Nullable ObjectNode params, Duration timeout) {
        return cdp.send(sessionId, method, params, timeout);
    }

    /** Sends without waiting: several requests are then in flight at once (a snapshot's reads). */
    java.util.concurrent.CompletableFuture<JsonNode> request(
            @Nullable String sessionId, String method, @Nullable ObjectNode params) {
        return cdp.sendAsync(sessionId, method, params);
    }

    void sendAsync(@Nullable String sessionId, String method, @Nullable ObjectNode params) {
        cdp.sendAsync(sessionId, method, params).exceptionally(e -> {
            log.debug("{} failed: {}", method, e.toString());
            return null;
        });
    }

    /** A new page target attached in flat mode; its events go to {@code listener}. Answers {targetId, sessionId}. */
    String[] newPage(Consumer<JsonNode> listener) {
        String targetId = send(null, "Target.createTarget", obj().put("url", "about:blank"))
                .path("targetId")
                .asString();
        String sessionId = send(
                        null,
                        "Target.attachToTarget",
                        obj().put("targetId", targetId).put("flatten", true))
                .path("sessionId")
                .asString();
        sessions.put(sessionId, listener);
        return new String[] {targetId, sessionId};
    }

    /** The events of another flat session (a target a page started) go to {@code listener} too. */
    void listen(String sessionId, Consumer<JsonNode> listener) {
        sessions.put(sessionId, listener);
    }

    void forget(String sessionId) {
        sessions.remove(sessionId);
    }

    void closeTarget(String targetId) {
        if (isAlive()) {
            sendAsync(null, "Target.closeTarget", obj().put("targetId", targetId));
        }
    }

    void closePage(String targetId, @Nullable String sessionId) {
        if (sessionId != null) {
            sessions.remove(sessionId);
        }
        if (isAlive()) {
            sendAsync(null, "Target.closeTarget", obj().put("targetId", targetId));
        }
    }

    /**
     * Memory of the browser and its child processes in bytes: the sum of their proportional set sizes
     * (PSS, from /proc/PID/smaps_rollup: shared pages counted once across the tree), else their RSS.
     */
    long residentBytes() {
        long total = 0;
        for (ProcessHandle handle : java.util.stream.Stream.concat(
                        java.util.stream.Stream.of(process.toHandle()), process.descendants())
                .toList()) {
            total += rss(handle.pid());
        }
        return total;
    }

    private static long rss(long pid) {
        try {
            Path rollup = Path.of("/proc", Long.toString(pid), "smaps_rollup");
            if (Files.isReadable(rollup)) {
                for (String line : Files.readAllLines(rollup)) {
                    if (line.startsWith("Pss:")) {
                        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            }
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    private void event(JsonNode message) {
        if (message.path("method").asString().equals("lomi.disconnected")) {
            sessions.values().forEach(l -> l.accept(message));
            onExit.run();
            return;
        }
        JsonNode session = message.get("sessionId");
        if (session != null) {
            Consumer<JsonNode> listener = sessions.get(session.asString());
            if (listener != null) {
                listener.accept(message);
            }
        }
    }

    @Override
    public void close() {
        if (process.isAlive() && cdp.isOpen()) {
            try {
                cdp.send(null, "Browser.close", null, Duration.ofSeconds(2));
            } catch (LomiException e) {
                log.debug("Browser.close: {}", e.getMessage());
            }
        }
        cdp.close();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        deleteTree(profile);
    }

    static ObjectNode obj() {
        return JsonNodeFactory.instance.objectNode();
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void drain(InputStream stderr, String name) {
        Thread thread = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    try (stderr) {
                        while (stderr.read(buffer) >= 0) {
                            // Chromium's own diagnostics; not ours to log at any level a user sees
                        }
                    } catch (IOException e) {
                        log.trace("stderr of {}: {}", name, e.toString());
                    }
                },
                "lomi-chromium-stderr-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Removes the profile: nothing of a browser's session survives its close. */
    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            log.warn("cannot delete browser profile {}: {}", root, e.toString());
        }
    }
}
