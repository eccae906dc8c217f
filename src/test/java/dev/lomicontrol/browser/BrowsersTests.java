package dev.lomicontrol.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The engine with a real headless Chromium: one process and private profile per owner, no TCP
 * socket any process could connect to (only the pipe), the profile deleted on close, caps per
 * broker and per owner, and idle browsers closed by the reaper after the setting's timeout.
 */
class BrowsersTests {

    final MutableClock clock = MutableClock.startingAt("2026-12-01T09:00:00Z");
    Browsers browsers;

    @BeforeEach
    void start() {
        BrowserOptions options = BrowserOptions.defaults().withCaps(3, 2).withIdleTimeout(Duration.ofMinutes(5));
        assertThat(options.executable())
                .as("install Chromium: apt-get install -y chromium-headless-shell")
                .isPresent();
        browsers = new Browsers(options, clock, new SecureRandom());
    }

    @AfterEach
    void stop() {
        browsers.close();
    }

    @Test
    void eachOwnerGetsItsOwnProcessAndProfileAndNoListeningSocket() throws Exception {
        BrowserPage a = browsers.open("session-a", origin -> false);
        BrowserPage a2 = browsers.open("session-a", origin -> false);
        BrowserPage b = browsers.open("session-b", origin -> false);
        assertThat(a.profileId()).isEqualTo(a2.profileId()).isNotEqualTo(b.profileId());
        assertThat(Set.of(a.generation(), a2.generation(), b.generation())).hasSize(3);
        assertThat(browsers.processes()).isEqualTo(2);

        Set<Long> inodes = listeningInodes();
        List<Long> pids = tree(a);
        assertThat(pids.size()).isGreaterThan(1);
        for (long pid : pids) {
            assertThat(socketInodes(pid))
                    .as("process %d of the browser listens on no TCP port", pid)
                    .doesNotContainAnyElementsOf(inodes);
        }
        assertThat(a.residentBytes()).as("memory of one browser is measured").isGreaterThan(10L << 20);
    }

    @Test
    void closingTheLastPageDeletesTheProfileAndANewOpenGetsANewGeneration() {
        BrowserPage page = browsers.open("session-c", origin -> false);
        Path profile = page.uploadDirectory().getParent();
        assertThat(profile).isDirectory();
        browsers.close(page.generation());
        assertThat(profile).doesNotExist();
        assertThat(browsers.find(page.generation())).isEmpty();
        BrowserPage again = browsers.open("session-c", origin -> false);
        assertThat(again.generation()).isNotEqualTo(page.generation());
        assertThat(again.profileId()).isNotEqualTo(page.profileId());
    }

    @Test
    void capsPerBrokerAndPerOwnerAreResourceExhausted() {
        browsers.open("session-d", origin -> false);
        browsers.open("session-d", origin -> false);
        assertThatThrownBy(() -> browsers.open("session-d", origin -> false))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED));
        browsers.open("session-e", origin -> false);
        assertThatThrownBy(() -> browsers.open("session-f", origin -> false))
                .isInstanceOfSatisfying(
                        LomiException.class, e -> assertThat(e.getMessage()).contains("maximum of 3"));
    }

    @Test
    void anUnusedBrowserIsClosedAfterTheIdleTimeout() {
        BrowserPage idle = browsers.open("session-g", origin -> false);
        clock.advance(Duration.ofMinutes(3));
        BrowserPage busy = browsers.open("session-h", origin -> false);
        clock.advance(Duration.ofMinutes(3));
        browsers.closeIdle();
        assertThat(browsers.find(idle.generation())).isEmpty();
        assertThat(browsers.find(busy.generation())).isPresent();
    }

    @Test
    void noExecutableIsHostUnqualifiedNamingThePackage() {
        try (Browsers none = new Browsers(
                new BrowserOptions(
                        Optional.empty(), 1, 1, Duration.ofMinutes(1), Duration.ofSeconds(1), Duration.ofSeconds(1)),
                clock,
                new SecureRandom())) {
            assertThatThrownBy(() -> none.open("x", origin -> false)).isInstanceOfSatisfying(LomiException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.HOST_UNQUALIFIED);
                assertThat(e.getMessage()).contains("apt-get install chromium-headless-shell");
            });
        }
    }

    private static List<Long> tree(BrowserPage page) {
        ProcessHandle root = ProcessHandle.of(page.pid()).orElseThrow();
        return Stream.concat(Stream.of(root), root.descendants())
                .map(ProcessHandle::pid)
                .toList();
    }

    /** The inodes of every listening TCP socket on this machine (state 0A in /proc/net/tcp and tcp6). */
    private static Set<Long> listeningInodes() throws IOException {
        Set<Long> out = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals("0A")) {
                    out.add(Long.parseLong(f[9]));
                }
            }
        }
        return out;
    }

    private static Set<Long> socketInodes(long pid) {
        Set<Long> out = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds.forEach(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        out.add(Long.parseLong(target.substring(8, target.length() - 1)));
                    }
                } catch (IOException e) {
                    // the fd closed meanwhile
                }
            });
        } catch (IOException e) {
            // the process ended meanwhile
        }
        return out;
    }
}
