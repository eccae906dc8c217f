package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorMessages;
import dev.lomicontrol.testing.BrokerChildProcess;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.testing.TestSite;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Issue 39, end to end: the refusals an agent meets most, sent through the real helper to the real
 * broker (both child JVMs, strict about error messages), each answer a message that names what was
 * wrong and the next step, in one sentence — a refusal of the call itself ({@code isError}) and a
 * durable operation that settles failed alike. The session is paired with read scopes and browser
 * interaction only (no YOLO: the admin approves the browser's origin in the console), so a mutation
 * is refused for its scope.
 */
class RefusalMessagesProcessTests {

    /** A sentence that ends and a new one that starts: the messages are one sentence, clauses joined by ";". */
    private static final Pattern SECOND_SENTENCE = Pattern.compile("[.!?] +[A-Z]");

    @TempDir
    Path temp;

    int ids;

    @Test
    void everyRefusalSaysWhatWasWrongAndWhatToDoNext() throws Exception {
        assertThat(HostQualification.reason(HostNeed.BROWSER))
                .as("the browser refusal needs Chromium: apt-get install -y chromium-headless-shell")
                .isEmpty();
        Path project = Files.createDirectories(temp.resolve("project")).toRealPath();
        Files.writeString(project.resolve("notes.txt"), "notes\n");
        Files.writeString(project.resolve(".env"), "TOKEN=secret\n");
        try (BrokerChildProcess broker = BrokerChildProcess.on(temp.resolve("data"))
                        .log(temp.resolve("broker.err"))
                        .emptyHome()
                        .start();
                TestSite site = new TestSite()) {
            broker.console().mergingStderr().ok("project", "add", project.toString());
            try (McpHelperProcess helper = McpHelperProcess.pinnedTo(broker, temp.resolve("helper.err"))
                    .start()) {
                helper.initialize(McpHelperProcess.PROTOCOL);
                helper.approvedInTheConsole(
                        broker,
                        "--scopes",
                        "workspace.read,files.read,panel.create,browser.navigate,browser.read,browser.interact");
                refusalsOfTheCall(helper);
                aFillOnALabelFailsItsOperation(helper, broker, site);
                assertThat(helper.stderrText()).doesNotContain(ErrorMessages.STRICT_PROPERTY);
            }
            assertThat(broker.logText()).doesNotContain(ErrorMessages.STRICT_PROPERTY);
        }
    }

    private void refusalsOfTheCall(McpHelperProcess helper) throws Exception {
        String workspaceId = ok(helper, "lomi_workspace_list", "{}")
                .at("/data/workspaces/0/workspaceId")
                .asString();
        String ws = "\"workspaceId\":\"" + workspaceId + "\"";

        assertThat(refused(helper, "lomi_files_read", "{" + ws + ",\"relativePath\":\"notes.txt\",\"surprise\":1}"))
                .as("an unknown field")
                .isEqualTo(new Refusal(
                        "INVALID_ARGUMENT",
                        "invalid arguments for lomi_files_read: arguments.surprise: unknown field; allowed: workspaceId, relativePath, startUtf16, maxChars,"
                                + " expectedDiskRevision (remove it or correct its name)"));
        assertThat(refused(
                                helper,
                                "lomi_files_read",
                                "{" + ws + ",\"relativePath\":\"notes.txt\",\"expectedDiskRevision\":\""
                                        + "0".repeat(64) + "\"}")
                        .message())
                .as("a stale revision")
                .endsWith("; read it again from the start");
        assertThat(refused(helper, "lomi_files_read", "{" + ws + ",\"relativePath\":\"../outside.txt\"}"))
                .as("a path that escapes the project")
                .isEqualTo(new Refusal(
                        "INVALID_ARGUMENT",
                        "path components '.' and '..' are not allowed, so a path cannot leave the project; give it"
                                + " from the project root without them"));
        assertThat(refused(helper, "lomi_files_read", "{" + ws + ",\"relativePath\":\".env\"}"))
                .as("a secret path")
                .isEqualTo(new Refusal(
                        "SCOPE_DENIED",
                        "'.env' is a protected path (credentials, keys and version-control internals are never shown"
                                + " to agents); work with other files, and with the lomi_git_* tools for the"
                                + " repository"));
        assertThat(refused(helper, "lomi_files_read", "{" + ws + ",\"relativePath\":\"missing.txt\"}"))
                .as("a file that does not exist")
                .isEqualTo(new Refusal(
                        "TARGET_NOT_FOUND",
                        "'missing.txt' does not exist; list its folder (lomi_files_list) for the names there"));
        Connected connected = connect(helper, ws);
        Refusal scope = refused(
                helper,
                "lomi_files_mutate",
                "{" + ws + ",\"expectedRevision\":\"" + connected.revision() + "\",\"retryEpoch\":\""
                        + connected.epoch()
                        + "\",\"requestKey\":\"create-1\",\"operation\":{\"type\":\"create\","
                        + "\"relativePath\":\"new.txt\",\"kind\":\"file\",\"expectedParentRevision\":\""
                        + "0".repeat(64) + "\"}}");
        assertThat(scope)
                .as("a tool outside the session's scopes")
                .isEqualTo(new Refusal(
                        "SCOPE_DENIED",
                        "lomi_files_mutate needs the files.mutate scope, which this session was not granted; use a"
                                + " tool within the session's scopes, or ask the user to pair again granting"
                                + " files.mutate"));
        String open = ",\"url\":\"about:blank\",\"requestKey\":\"open-0\"";
        assertThat(refused(
                                helper,
                                "lomi_browser_open",
                                "{" + ws + open + ",\"expectedRevision\":\"" + connected.revision()
                                        + "\",\"retryEpoch\":\"" + "e".repeat(40) + "\"}")
                        .message())
                .as("a retry epoch this connection was not given")
                .endsWith("; call lomi_connect for a fresh one");
        assertThat(refused(
                                helper,
                                "lomi_browser_open",
                                "{" + ws + open + ",\"expectedRevision\":\"999\",\"retryEpoch\":\"" + connected.epoch()
                                        + "\"}")
                        .message())
                .as("a stale layout revision")
                .endsWith("; list again and retry with a new requestKey");
    }

    /** The issue's own example: a fill on a label's ref settles failed, and its result says why and what to fill. */
    private void aFillOnALabelFailsItsOperation(McpHelperProcess helper, BrokerChildProcess broker, TestSite site)
            throws Exception {
        String workspaceId = ok(helper, "lomi_workspace_list", "{}")
                .at("/data/workspaces/0/workspaceId")
                .asString();
        String ws = "\"workspaceId\":\"" + workspaceId + "\"";
        Connected connected = connect(helper, ws);
        String open = ok(
                        helper,
                        "lomi_browser_open",
                        "{" + ws + ",\"url\":\"" + site.url("/") + "\",\"expectedRevision\":\"" + connected.revision()
                                + "\",\"retryEpoch\":\"" + connected.epoch() + "\",\"requestKey\":\"open-1\"}")
                .at("/data/operationId")
                .asString();
        // a new origin waits for the admin, who approves it in the console
        broker.console().mergingStderr().ok("decision", "approve", open);
        JsonNode opened = settled(helper, open);
        assertThat(opened.path("state").asString()).as("%s", opened).isEqualTo("succeeded");
        JsonNode browser = opened.path("result");
        String page = ws + ",\"panelId\":\"" + browser.path("panelId").asString() + "\",\"browserGeneration\":\""
                + browser.path("browserGeneration").asString() + "\"";
        JsonNode snapshot =
                ok(helper, "lomi_browser_snapshot", "{" + page + "}").path("data");
        String label = null;
        for (JsonNode element : snapshot.path("elements")) {
            if (element.path("role").asString().equals("text")
                    && element.path("name").asString().equals("Name")) {
                label = element.path("elementRef").asString();
            }
        }
        assertThat(label).as("the label's text in %s", snapshot).isNotNull();
        JsonNode fill = ok(
                        helper,
                        "lomi_browser_fill",
                        "{" + page + ",\"navigationId\":\""
                                + snapshot.path("navigationId").asString()
                                + "\",\"snapshotId\":\""
                                + snapshot.path("snapshotId").asString()
                                + "\",\"elementRef\":\"" + label + "\",\"leaseId\":\""
                                + browser.path("leaseId").asString() + "\",\"retryEpoch\":\"" + connected.epoch()
                                + "\",\"requestKey\":\"fill-1\",\"text\":\"Ada\"}")
                .path("data");
        JsonNode failed = fill.path("state").asString().equals("failed")
                ? fill
                : settled(helper, fill.path("operationId").asString());
        assertThat(failed.path("state").asString()).as("%s", failed).isEqualTo("failed");
        Refusal refusal = new Refusal(
                failed.path("errorCode").asString(),
                failed.at("/result/message").asString(""));
        assertOneSentenceWithANextStep(refusal);
        assertThat(refusal)
                .isEqualTo(new Refusal(
                        "INVALID_ARGUMENT",
                        "ref " + label + " is text of the label \"Name\", not a field that takes text; fill the field"
                                + " it labels instead (in lomi_browser_snapshot, the textbox, searchbox or combobox"
                                + " named \"Name\")"));
    }

    private JsonNode settled(McpHelperProcess helper, String operationId) {
        return Eventually.await(
                        "operation " + operationId + " settles",
                        Duration.ofSeconds(30),
                        () -> ok(helper, "lomi_operation_get", "{\"operationId\":\"" + operationId + "\"}"),
                        answer -> !answer.at("/data/state").asString().matches("queued|awaiting_user|running"))
                .path("data");
    }

    record Refusal(String code, String message) {}

    /** A retry epoch ({@code lomi_connect}) and the domain revision ({@code lomi_panel_list}) of the workspace. */
    private record Connected(String epoch, String revision) {}

    private Connected connect(McpHelperProcess helper, String ws) {
        return new Connected(
                ok(helper, "lomi_connect", "{" + ws + "}")
                        .at("/data/retryEpoch")
                        .asString(),
                ok(helper, "lomi_panel_list", "{" + ws + "}")
                        .at("/data/domainRevision")
                        .asString());
    }

    private JsonNode ok(McpHelperProcess helper, String tool, String arguments) {
        try {
            JsonNode result = helper.callTool(++ids, tool, arguments).path("result");
            assertThat(result.path("isError").asBoolean())
                    .as("%s: %s", tool, result)
                    .isFalse();
            return result.path("structuredContent");
        } catch (Exception e) {
            throw new AssertionError(tool + " was not answered", e);
        }
    }

    private Refusal refused(McpHelperProcess helper, String tool, String arguments) throws Exception {
        JsonNode result = helper.callTool(++ids, tool, arguments).path("result");
        JsonNode envelope = result.path("structuredContent");
        assertThat(result.path("isError").asBoolean())
                .as("%s: %s", tool, result)
                .isTrue();
        assertThat(envelope.path("status").asString()).isEqualTo("error");
        assertThat(result.at("/content/0/text").asString())
                .as("the text block carries the same envelope")
                .contains(McpHelperProcess.JSON.writeValueAsString(envelope.path("message")));
        Refusal refusal = new Refusal(
                envelope.path("code").asString(), envelope.path("message").asString(""));
        assertOneSentenceWithANextStep(refusal);
        return refusal;
    }

    /** Non-empty, one line, one sentence, and a clause after the account of what was wrong: the next step. */
    private static void assertOneSentenceWithANextStep(Refusal refusal) {
        assertThat(refusal.message()).as("%s", refusal).isNotBlank().doesNotContain("\n");
        assertThat(SECOND_SENTENCE.matcher(refusal.message()).find())
                .as("one sentence: %s", refusal)
                .isFalse();
        assertThat(refusal.message())
                .as("what was wrong; the next step: %s", refusal)
                .contains("; ");
    }
}
