package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ConsoleRun;
import dev.lomicontrol.testing.InteropPackages;
import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.testing.TestSite;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The browser flow end to end: the official TypeScript SDK client ({@code interop/browser-client.mjs})
 * drives the real helper against a real broker child with a real Chromium and pages served on
 * 127.0.0.1; the admin pairs it and approves the origin through the console. The SDK validates every
 * structured result against the tool's published outputSchema.
 */
class BrowserInteropTests {

    static final Path INTEROP = InteropTests.INTEROP;

    @TempDir
    Path temp;

    @Test
    void theSdkClientRunsTheWholeBrowserFlowThroughTheHelper() throws Exception {
        InteropPackages.install();
        try (TestSite site = new TestSite();
                TestSite other = new TestSite();
                BrokerChildProcess broker = BrokerChildProcess.start(temp.resolve("data"))) {
            Path project = InteropTests.addedProject(broker, temp);
            List<String> command = new ArrayList<>(
                    List.of("node", INTEROP.resolve("browser-client.mjs").toString()));
            command.addAll(McpHelperProcess.command(broker));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(INTEROP.toFile())
                    .redirectError(temp.resolve("browser.err").toFile());
            builder.environment().put("LOMI_TEST_SITE", site.origin());
            builder.environment().put("LOMI_OTHER_SITE", other.origin());
            Process node = builder.start();
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (java.io.IOException ignored) {
                    // ended
                }
            });
            reader.start();
            String pairing = awaitLine(lines, "PAIRING ", reader, node).substring("PAIRING ".length());
            assertThat(broker.console()
                            .in(temp)
                            .run("pairing", "approve", pairing)
                            .exitCode())
                    .isZero();
            String decision = awaitLine(lines, "DECISION ", reader, node).substring("DECISION ".length());
            ConsoleRun.Result listed = broker.console().in(temp).run("decision", "list");
            assertThat(listed.toString()).contains(decision).contains(site.origin());
            assertThat(broker.console()
                            .in(temp)
                            .run("decision", "approve", decision)
                            .exitCode())
                    .isZero();
            String result = awaitLine(lines, "RESULT ", reader, node);
            assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(node.exitValue())
                    .as(Files.readString(temp.resolve("browser.err")))
                    .isZero();
            JsonNode summary = JsonMapper.builder().build().readTree(result.substring("RESULT ".length()));
            assertThat(summary.path("browserTools").asInt()).isEqualTo(12);
            assertThat(summary.path("panelGeneration").asString())
                    .isEqualTo(summary.path("generation").asString());
            assertThat(summary.path("imageBytes").asInt()).isGreaterThan(1000);
            assertThat(summary.path("downloadSha256").asString())
                    .isEqualTo(HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(TestSite.FILE)));
            assertThat(other.requests)
                    .as("the redirect to the unapproved origin never reached it")
                    .isEmpty();
            assertThat(broker.console()
                            .in(temp)
                            .run("browser", "origins", "list")
                            .toString())
                    .contains(site.origin());
        }
    }

    /** The first line starting with {@code prefix}; fails once the client's stdout has ended (read to the end by {@code reader}) without one. */
    private String awaitLine(List<String> lines, String prefix, Thread reader, Process process) {
        await().atMost(Duration.ofSeconds(180))
                .until(() -> lines.stream().anyMatch(line -> line.startsWith(prefix)) || !reader.isAlive());
        return lines.stream()
                .filter(line -> line.startsWith(prefix))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no '" + prefix + "' line"
                        + (process.isAlive() ? "" : " (browser-client.mjs exited " + process.exitValue() + ")") + ": "
                        + lines + "\n" + read(temp.resolve("browser.err"))));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(" + file + " unreadable: " + e.getMessage() + ")";
        }
    }
}
