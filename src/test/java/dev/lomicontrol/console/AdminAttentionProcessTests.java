package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.LomiControl;
import dev.lomicontrol.mcp.Conformance;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.ChildJvm;
import dev.lomicontrol.testing.ConsoleRun;
import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.tools.RecordSchemas;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Issue 17, real processes (a broker, a real {@code --mcp} helper, console clients): the admin learns of
 * the helper's pairing request from the broker's log and from {@code pairing list --watch} within 2 s; every {@code --json} document parses and conforms to the
 * schema derived from its record; the exit statuses tell usage errors, refusals and "no broker" apart.
 */
class AdminAttentionProcessTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    final List<McpHelperProcess> helpers = new java.util.ArrayList<>();

    @Test
    void aPairingRequestReachesTheLogAndTheWatchWithinTwoSecondsAndEveryJsonDocumentConforms() throws Exception {
        Path work = Files.createDirectories(temp.resolve("work"));
        try (BrokerChildProcess broker =
                BrokerChildProcess.start(temp.resolve("run").resolve("data"))) {
            assertThat(broker.console()
                            .in(work)
                            .run("project", "add", work.toString())
                            .exitCode())
                    .isZero();
            Path watchOut = temp.resolve("watch.out");
            Process watch = ChildJvm.builder(
                            LomiControl.class,
                            List.of("console", "--data-dir", broker.data().toString(), "pairing", "list", "--watch"))
                    .redirectOutput(watchOut.toFile())
                    .redirectError(temp.resolve("watch.err").toFile())
                    .start();
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> Files.exists(watchOut)
                                && Files.readString(watchOut).contains("watching pairing list"));

                McpHelperProcess helper = McpHelperProcess.launch(temp.resolve("helper.err"))
                        .pairedWith(broker)
                        .start();
                helpers.add(helper);
                helper.sendLine(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"attention client\",\"version\":\"1\"}}}");
                Pattern logged = Pattern.compile("pairing request (pr-[0-9a-f]+) from client");
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> logged.matcher(broker.logText()).find());
                long seen = System.nanoTime();
                Matcher request = logged.matcher(broker.logText());
                assertThat(request.find()).isTrue();
                String id = request.group(1);
                // the latency is printed below (a figure, not a pass mark); the bound only keeps a broken watch from
                // hanging the test
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> Files.readString(watchOut).contains("pairing request " + id));
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - seen);
                assertThat(broker.logText()).contains("lomi-control console pairing approve " + id);
                assertThat(Files.readString(broker.data().resolve("log/broker.log")))
                        .as("the log file holds it too")
                        .contains("pairing request " + id);
                assertThat(Files.readString(watchOut)).contains("approve: pairing approve " + id);
                System.out.println("pairing request visible in the log and the watch after " + millis + " ms");

                JsonNode pending = document(broker, work, ConsoleJson.Pairings.class, "pairing", "list", "--json");
                assertThat(pending.path("requests").get(0).path("id").asString())
                        .isEqualTo(id);

                assertThat(broker.console()
                                .in(work)
                                .run("pairing", "approve", id)
                                .exitCode())
                        .isZero();
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> Files.readString(watchOut).contains("gone: " + id));
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> broker.console()
                                .in(work)
                                .run("session", "list")
                                .stdout()
                                .contains("attention client"));

                JsonNode sessions = document(broker, work, ConsoleJson.Sessions.class, "session", "list", "--json");
                assertThat(sessions.path("sessions").get(0).path("client").asString())
                        .contains("attention client");
                assertThat(sessions.path("sessions").get(0).path("scopes").size())
                        .isGreaterThan(1);
                JsonNode status = document(broker, work, ConsoleJson.Status.class, "status", "--json");
                assertThat(status.path("sessions").asInt()).isEqualTo(1);
                assertThat(status.path("dataDirectory").asString())
                        .isEqualTo(broker.data().toString());
                JsonNode decisions = document(broker, work, ConsoleJson.Decisions.class, "decision", "list", "--json");
                assertThat(decisions.path("decisions").size()).isZero();
                JsonNode ledger = document(broker, work, ConsoleJson.Ledger.class, "ledger", "status", "--json");
                assertThat(ledger.path("receiptCap").asInt()).isEqualTo(4096);
                assertThat(ledger.path("receiptLevel").asString()).isEqualTo("below_80");
                JsonNode clients = document(broker, work, ConsoleJson.Clients.class, "client", "list", "--json");
                assertThat(clients.path("entries").size())
                        .as("a row per client and scope")
                        .isGreaterThan(6);

                ConsoleRun.Result refused = broker.console().in(work).run("pairing", "approve", "pr-nope");
                assertThat(refused.exitCode()).as("a refusal: " + refused).isEqualTo(ConsoleResult.REFUSED);
                ConsoleRun.Result usage = broker.console().in(work).run("pairing", "list", "--bogus");
                assertThat(usage.exitCode()).as("a usage error: " + usage).isEqualTo(ConsoleResult.USAGE);
            } finally {
                for (McpHelperProcess helper : helpers) {
                    helper.kill();
                }
                watch.destroy();
                watch.waitFor(30, TimeUnit.SECONDS);
            }
        }
        ConsoleRun.Result none = BrokerChildProcess.console(temp.resolve("nothing-here"))
                .in(work)
                .run("status", "--json");
        assertThat(none.exitCode()).as("no broker: " + none).isEqualTo(ConsoleResult.NO_BROKER);
        ConsoleRun.Result help = BrokerChildProcess.console(temp.resolve("nothing-here"))
                .in(work)
                .run("--help");
        assertThat(help.stdout()).contains("0 ok, 1 refused", "2 usage error", "3 no broker running");
    }

    /**
     * Security finding N2: an agent names a folder whose name holds ESC[2K, CR, an OSC 52 (clipboard)
     * sequence, a C1 CSI, a right-to-left override and an LF with a fake log line, and asks to open it
     * as a project. The decision's attention line reaches the broker's stderr (the admin's console
     * terminal) and the log file with every one of them escaped: no raw ESC, CR, C1 or U+202E byte, and
     * no line that starts with the agent's fake text.
     */
    @Test
    void agentChosenTextReachesTheBrokersStderrAndLogFileOnlyInEscapedForm() throws Exception {
        String hostile = "x\u001b[2K\r\u001b]52;c;cm0gLXJmIH4=\u0007\u009b1A\u202eevil\nfake-approved-line\u001b[8m";
        Path folder = Files.createDirectories(temp.resolve(hostile)).toRealPath();
        try (BrokerChildProcess broker = BrokerChildProcess.on(
                        temp.resolve("run").resolve("data"))
                .log(temp.resolve("broker.err"))
                .emptyHome()
                .start()) {
            broker.console()
                    .mergingStderr()
                    .ok(
                            "project",
                            "add",
                            Files.createDirectories(temp.resolve("project")).toString());
            try (McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                    .start()) {
                helper.initialize(McpHelperProcess.PROTOCOL);
                helper.approvedInTheConsole(broker);
                String workspaceId = data(helper, "lomi_workspace_list", JSON.createObjectNode())
                        .at("/workspaces/0/workspaceId")
                        .asString();
                ObjectNode workspace = JSON.createObjectNode().put("workspaceId", workspaceId);
                String epoch = data(helper, "lomi_connect", workspace)
                        .path("retryEpoch")
                        .asString();
                String revision = data(helper, "lomi_panel_list", workspace)
                        .path("domainRevision")
                        .asString();
                JsonNode parked = data(
                        helper,
                        "lomi_project_open",
                        workspace
                                .deepCopy()
                                .put("projectPath", folder.toString())
                                .put("name", "hostile")
                                .put("expectedRevision", revision)
                                .put("retryEpoch", epoch)
                                .put("requestKey", "open-hostile"));
                assertThat(parked.path("state").asString()).isEqualTo("awaiting_user");
                String waiting = "operation " + parked.path("operationId").asString() + " (lomi_project_open) waits";
                Path logFile = broker.data().resolve("log/broker.log");
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> broker.logText().contains(waiting)
                                && Files.readString(logFile).contains(waiting));

                for (Path log : List.of(broker.log(), logFile)) {
                    // UTF-8 never uses the bytes of ESC or CR inside a multi-byte character, so the decoded
                    // text holds them exactly where the file's bytes do
                    String text = Files.readString(log);
                    String attention = text.lines()
                            .filter(line -> line.contains(waiting))
                            .findFirst()
                            .orElseThrow();
                    assertThat(text.chars()
                                    .filter(c -> c == 0x1b || c == '\r' || (c >= 0x80 && c <= 0x9f) || c == 0x202e)
                                    .mapToObj(c -> String.format("U+%04X", c)))
                            .as(log + ": no raw ESC, CR, C1 control or right-to-left override; the line: "
                                    + attention
                                            .codePoints()
                                            .mapToObj(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x202e
                                                    ? String.format("<%02X>", c)
                                                    : Character.toString(c))
                                            .collect(java.util.stream.Collectors.joining()))
                            .isEmpty();
                    assertThat(text)
                            .as(log.toString())
                            .contains("x\\u001b[2K\\r\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u009b1A\\u202eevil"
                                    + "\\nfake-approved-line\\u001b[8m")
                            .doesNotContain("\nfake-approved-line");
                }
            }
        }
    }

    private static JsonNode data(McpHelperProcess helper, String tool, ObjectNode arguments) throws Exception {
        JsonNode result = helper.call(tool, arguments).path("result");
        assertThat(result.path("isError").asBoolean()).as(tool + ": " + result).isFalse();
        return result.path("structuredContent").path("data");
    }

    /** Runs a {@code --json} command: status 0, one JSON document conforming to its record's schema. */
    private static JsonNode document(
            BrokerChildProcess broker, Path work, Class<? extends Record> type, String... command) throws Exception {
        ConsoleRun.Result run = broker.console().in(work).run(command);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode document = JSON.readTree(run.stdout());
        assertThat(Conformance.violation(RecordSchemas.output(type), document))
                .as(String.join(" ", command) + ": " + run.stdout())
                .isEmpty();
        return document;
    }
}
