package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.android.api.AndroidInputs;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.browser.api.BrowserSpecs;
import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.chat.api.ChatSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.Scopes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The 25 reference tools this host does not serve yet (13 Android, 12 browser; the 7 chat tools are served since issue 16): each is
 * declared once with the reference's input, accepts a reference-shaped call with the reference's
 * meaning (defaults, unions, optional nulls), refuses a broken one as INVALID_ARGUMENT, carries the
 * reference's effect and hints, and needs a host capability — so the broker answers it
 * HOST_UNQUALIFIED where its host lacks that ({@code dev.lomicontrol.mcp.UnqualifiedToolsProcessTests}
 * runs the real helper, which forwards them without asking its own environment).
 */
public class UnqualifiedToolsTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    static final String W = "\"workspaceId\":\"w1\"";
    static final String DURABLE = "\"retryEpoch\":\"" + "a".repeat(40) + "\",\"requestKey\":\"k-1\"";
    static final String REV = "\"expectedRevision\":\"7\"";
    static final String LEASE = "\"leaseId\":\"" + "b".repeat(32) + "\"";
    static final String DEVICE = "\"panelId\":\"p1\",\"deviceId\":\"123e4567-e89b-12d3-a456-426614174000\"";
    static final String GEN = DEVICE + ",\"generation\":\"3\"";
    static final String BROWSER = "\"panelId\":\"p1\",\"browserGeneration\":\"g1\"";
    static final String ELEMENT =
            BROWSER + ",\"navigationId\":\"n1\",\"snapshotId\":\"s1\",\"elementRef\":\"e1\"," + LEASE;
    static final String SHA = "\"" + "c".repeat(64) + "\"";

    /** One reference-shaped call per tool, in catalog order (null for optional fields, defaults left out, as the reference's agents send them). */
    public static final Map<String, String> VALID = new LinkedHashMap<>();
    /** One broken call per tool and what the refusal names. */
    static final Map<String, List<String>> INVALID = new LinkedHashMap<>();

    static {
        valid(
                "lomi_browser_open",
                "{" + W + ",\"url\":\"https://example.com/\"," + REV + "," + DURABLE + "}",
                "{" + W + ",\"url\":\"file:///etc/passwd\"," + REV + "," + DURABLE + "}",
                "arguments.url");
        valid(
                "lomi_browser_navigate",
                "{" + W + "," + BROWSER + "," + LEASE
                        + ",\"url\":\"https://example.com/a?b=c\",\"waitUntil\":\"commit\"," + DURABLE + "}",
                "{" + W + "," + BROWSER + "," + LEASE
                        + ",\"url\":\"https://example.com/\",\"waitUntil\":\"networkidle\"," + DURABLE + "}",
                "arguments.waitUntil");
        valid(
                "lomi_browser_snapshot",
                "{" + W + "," + BROWSER + "}",
                "{" + W + "," + BROWSER + ",\"maxNodes\":0}",
                "arguments.maxNodes");
        valid(
                "lomi_browser_wait",
                "{" + W + "," + BROWSER
                        + ",\"condition\":{\"type\":\"element\",\"role\":\"button\",\"name\":\"Save\"},\"timeoutMs\":10000}",
                "{" + W + "," + BROWSER + ",\"condition\":{\"type\":\"load\"},\"timeoutMs\":10001}",
                "arguments.timeoutMs");
        valid(
                "lomi_browser_click",
                "{" + W + "," + ELEMENT + "," + DURABLE + "}",
                "{" + W + "," + BROWSER + ",\"navigationId\":\"n1\",\"snapshotId\":\"s1\",\"elementRef\":\"e1\","
                        + DURABLE + "}",
                "arguments.leaseId: is required");
        valid(
                "lomi_browser_fill",
                "{" + W + "," + ELEMENT + "," + DURABLE + ",\"text\":\"hello\"}",
                "{" + W + "," + ELEMENT + "," + DURABLE + ",\"text\":\"" + "x".repeat(16385) + "\"}",
                "arguments.text");
        valid(
                "lomi_browser_key",
                "{" + W + "," + ELEMENT + "," + DURABLE + ",\"key\":\"ArrowDown\"}",
                "{" + W + "," + ELEMENT + "," + DURABLE + ",\"key\":\"arrow_down\"}",
                "arguments.key");
        valid(
                "lomi_browser_scroll",
                "{" + W + "," + BROWSER + ",\"navigationId\":\"n1\",\"snapshotId\":\"s1\"," + LEASE + "," + DURABLE
                        + ",\"deltaX\":0,\"deltaY\":10.5}",
                "{" + W + "," + BROWSER + ",\"navigationId\":\"n1\",\"snapshotId\":\"s1\"," + LEASE + "," + DURABLE
                        + ",\"deltaX\":0,\"deltaY\":\"10\"}",
                "deltaY must be a finite number");
        valid(
                "lomi_browser_logs",
                "{" + W + "," + BROWSER + ",\"logKind\":\"console\",\"cursor\":null,\"limit\":10}",
                "{" + W + "," + BROWSER + ",\"logKind\":\"network\"}",
                "arguments.logKind");
        valid(
                "lomi_browser_screenshot",
                "{" + W + "," + BROWSER + ",\"navigationId\":\"n1\"}",
                "{" + W + "," + BROWSER + "}",
                "arguments.navigationId: is required");
        valid(
                "lomi_browser_upload",
                "{" + W + "," + ELEMENT + ",\"frameId\":\"f0\",\"artifactId\":\"a1\",\"expectedSha256\":" + SHA
                        + ",\"fileName\":\"report.pdf\"," + REV + "," + DURABLE + "}",
                "{" + W + "," + ELEMENT + ",\"frameId\":\"f0\",\"artifactId\":\"a1\"," + "\"expectedSha256\":" + SHA
                        + ",\"fileName\":\"../x\"," + REV + "," + DURABLE + "}",
                "arguments.fileName");
        valid(
                "lomi_browser_download",
                "{" + W + "," + BROWSER + ",\"navigationId\":\"n1\",\"url\":\"https://example.com/report.csv\"," + REV
                        + "," + DURABLE + "}",
                "{" + W + "," + BROWSER
                        + ",\"navigationId\":\"n1\",\"url\":\"https://example.com/r\",\"maxBytes\":4194305," + REV + ","
                        + DURABLE + "}",
                "arguments.maxBytes");

        valid(
                "lomi_chat_list",
                "{" + W + ",\"offset\":0,\"limit\":64,\"expectedRevision\":null}",
                "{" + W + ",\"offset\":20}",
                "expectedRevision");
        valid(
                "lomi_chat_read",
                "{" + W
                        + ",\"conversationId\":\"c_1\",\"part\":{\"type\":\"message\",\"messageId\":null},\"includeSendTarget\":true}",
                "{" + W + ",\"conversationId\":\"c_1\",\"part\":{\"type\":\"draft\"},\"maxChars\":1}",
                "arguments.maxChars");
        valid(
                "lomi_chat_export",
                "{" + W + ",\"conversationId\":\"c_1\",\"format\":\"markdown\"}",
                "{" + W + ",\"conversationId\":\"c_1\",\"format\":\"html\"}",
                "arguments.format");
        valid(
                "lomi_chat_open",
                "{" + W + ",\"target\":{\"type\":\"new\"}," + REV + "," + DURABLE + "}",
                "{" + W + ",\"target\":{\"type\":\"existing\"}," + REV + "," + DURABLE + "}",
                "arguments.target.conversationId: is required");
        valid(
                "lomi_chat_draft",
                "{" + W
                        + ",\"panelId\":\"p1\",\"conversationId\":\"c_1\",\"text\":\"\",\"expectedDraftRevision\":\"d1\","
                        + "\"expectedConversationRevision\":\"r1\"," + REV + "," + DURABLE + "}",
                "{" + W + ",\"panelId\":\"p1\",\"conversationId\":\"c_1\",\"text\":\"" + "é".repeat(16385)
                        + "\",\"expectedDraftRevision\":\"d1\",\"expectedConversationRevision\":\"r1\"," + REV + ","
                        + DURABLE + "}",
                "more than 32 KiB");
        valid(
                "lomi_chat_send",
                "{" + W
                        + ",\"panelId\":\"p1\",\"conversationId\":\"c_1\",\"connectionId\":\"openai-1\",\"model\":\"gpt-5\","
                        + "\"expectedDraftRevision\":\"d1\",\"expectedConversationRevision\":\"r1\"," + REV + ","
                        + DURABLE + "}",
                "{" + W + ",\"panelId\":\"p1\","
                        + "\"conversationId\":\"c 1\",\"connectionId\":\"openai-1\",\"model\":\"gpt-5\",\"expectedDraftRevision\":\"d1\","
                        + "\"expectedConversationRevision\":\"r1\"," + REV + "," + DURABLE + "}",
                "arguments.conversationId");
        valid(
                "lomi_chat_stop",
                "{" + W + ",\"conversationId\":\"c_1\",\"requestId\":\"req-1\"," + DURABLE + "}",
                "{" + W + ",\"panelId\":\"p1\",\"conversationId\":\"c_1\",\"requestId\":\"req-1\"," + DURABLE + "}",
                "arguments.panelId: unknown field");

        valid("lomi_android_list", "{" + W + "}", "{" + W + ",\"surprise\":1}", "arguments.surprise: unknown field");
        valid(
                "lomi_android_open",
                "{" + W + ",\"deviceId\":\"123e4567-e89b-12d3-a456-426614174000\"," + REV + "," + DURABLE + "}",
                "{" + W + ",\"deviceId\":\"emulator-5554\"," + REV + "," + DURABLE + "}",
                "arguments.deviceId");
        valid(
                "lomi_android_start",
                "{" + W + "," + DEVICE + "," + REV + "," + DURABLE + "}",
                "{" + W + ",\"deviceId\":\"123e4567-e89b-12d3-a456-426614174000\"," + REV + "," + DURABLE + "}",
                "arguments.panelId: is required");
        valid(
                "lomi_android_stop",
                "{" + W + "," + GEN + "," + REV + "," + DURABLE + "}",
                "{" + W + "," + DEVICE + "," + REV + "," + DURABLE + "}",
                "arguments.generation: is required");
        valid(
                "lomi_android_input",
                "{" + W + "," + GEN + "," + LEASE + ",\"inputSequence\":\"1\",\"event\":{\"type\":\"touch\",\"space\":"
                        + "\"hardware_display\",\"identifier\":0,\"x\":100,\"y\":200,\"phase\":\"down\"},\"retryEpoch\":\""
                        + "a".repeat(40) + "\"}",
                "{" + W + "," + GEN + "," + LEASE
                        + ",\"inputSequence\":\"1\",\"event\":{\"type\":\"navigation\",\"key\":\"back\"}," + DURABLE
                        + "}",
                "arguments.requestKey: unknown field");
        valid(
                "lomi_android_snapshot",
                "{" + W + "," + GEN + "}",
                "{" + W + "," + GEN + ",\"maxNodes\":501}",
                "arguments.maxNodes");
        valid(
                "lomi_android_screenshot",
                "{" + W + "," + GEN + ",\"maxEdge\":640}",
                "{" + W + "," + GEN + ",\"maxEdge\":32}",
                "arguments.maxEdge");
        valid(
                "lomi_android_logcat",
                "{" + W + "," + GEN
                        + ",\"packageName\":\"org.example_app.Main2\",\"minPriority\":\"W\",\"limit\":64,\"cursor\":null}",
                "{" + W + "," + GEN + ",\"packageName\":\"org.app;id\",\"minPriority\":\"W\",\"limit\":64}",
                "arguments.packageName");
        valid(
                "lomi_android_launch",
                "{" + W + "," + GEN + ",\"packageName\":\"org.example.app\",\"activity\":\".MainActivity\"," + REV + ","
                        + DURABLE + "}",
                "{" + W + "," + GEN + ",\"packageName\":\"org.example.app\",\"activity\":\"Main;id\"," + REV + ","
                        + DURABLE + "}",
                "arguments.activity");
        valid(
                "lomi_android_install_apk",
                "{" + W + "," + GEN + ",\"artifactId\":\"a1\",\"sha256\":" + SHA + "," + DURABLE + "}",
                "{" + W + "," + GEN + ",\"artifactId\":\"a1\",\"sha256\":\"" + "C".repeat(64) + "\"," + DURABLE + "}",
                "arguments.sha256");
        valid(
                "lomi_android_setup_plan",
                "{" + W
                        + ",\"action\":{\"type\":\"catalog\",\"offset\":0,\"limit\":32,\"expectedCatalogRevision\":null}}",
                "{" + W + ",\"action\":{\"type\":\"catalog\",\"offset\":32,\"limit\":32}}",
                "expectedCatalogRevision");
        valid(
                "lomi_android_setup_apply",
                "{" + W + ",\"planId\":\"plan-1\",\"planRevision\":\"r1\"," + DURABLE + "}",
                "{" + W + ",\"planId\":\"plan-1\",\"planRevision\":\"r1\",\"retryEpoch\":\"" + "a".repeat(40) + "\"}",
                "arguments.requestKey: is required");
        valid(
                "lomi_android_device_manage",
                "{" + W + ",\"action\":{\"type\":\"wipe\",\"expectedDevicesRevision\":\"r1\",\"deviceId\":"
                        + "\"123e4567-e89b-12d3-a456-426614174000\",\"generation\":null,\"confirmation\":\"Pixel 8\"},"
                        + DURABLE + "}",
                "{" + W + ",\"action\":{\"type\":\"format\"}," + DURABLE + "}",
                "arguments.action.type");
    }

    /** The reference's annotations (catalog.md §3, from server.rs) and effect of each tool. */
    static final Map<String, String> HINTS_AND_EFFECT = Map.ofEntries(
            Map.entry("lomi_browser_open", "--IO OP browser.navigate"),
            Map.entry("lomi_browser_navigate", "--IO OP browser.navigate"),
            Map.entry("lomi_browser_snapshot", "R-I- RO browser.read"),
            Map.entry("lomi_browser_wait", "R-I- RO browser.read"),
            Map.entry("lomi_browser_click", "-DIO OP browser.interact"),
            Map.entry("lomi_browser_fill", "-DIO OP browser.interact"),
            Map.entry("lomi_browser_key", "-DIO OP browser.interact"),
            Map.entry("lomi_browser_scroll", "-DIO OP browser.interact"),
            Map.entry("lomi_browser_logs", "R-I- RO browser.read"),
            Map.entry("lomi_browser_screenshot", "R-I- RO browser.capture_composite"),
            Map.entry("lomi_browser_upload", "-DIO OP browser.upload"),
            Map.entry("lomi_browser_download", "--IO OP browser.download"),
            Map.entry("lomi_chat_list", "R-I- RO chat.read"),
            Map.entry("lomi_chat_read", "R-I- RO chat.read"),
            Map.entry("lomi_chat_export", "R-I- RO chat.export"),
            Map.entry("lomi_chat_open", "--I- OP chat.open"),
            Map.entry("lomi_chat_draft", "-DI- OP chat.draft"),
            Map.entry("lomi_chat_send", "--IO OP chat.send"),
            Map.entry("lomi_chat_stop", "-DI- OP chat.stop"),
            Map.entry("lomi_android_list", "R-I- RO android.read"),
            Map.entry("lomi_android_open", "--I- OP android.read"),
            Map.entry("lomi_android_start", "--I- OP android.control"),
            Map.entry("lomi_android_stop", "-DI- OP android.control"),
            Map.entry("lomi_android_input", "-DIO ORDERED android.interact"),
            Map.entry("lomi_android_snapshot", "R-I- RO android.observe"),
            Map.entry("lomi_android_screenshot", "R-I- RO android.capture"),
            Map.entry("lomi_android_logcat", "R-I- RO android.logs"),
            Map.entry("lomi_android_launch", "-DIO OP android.launch"),
            Map.entry("lomi_android_install_apk", "-DI- OP android.install"),
            Map.entry("lomi_android_setup_plan", "R-IO RO android.read"),
            Map.entry("lomi_android_setup_apply", "-DIO OP android.setup"),
            Map.entry("lomi_android_device_manage", "-DI- OP android.read"));

    private static void valid(String tool, String valid, String invalid, String... refusal) {
        VALID.put(tool, valid);
        INVALID.put(tool, List.of(invalid, refusal[0]));
    }

    static List<ToolSpec<?>> unqualified() {
        return ToolCatalog.standard().all().stream()
                .filter(spec -> spec.host() != HostNeed.NONE)
                .toList();
    }

    static Object bind(String tool, String arguments) {
        return ToolCatalog.standard().find(tool).orElseThrow().bind(JSON.readTree(arguments));
    }

    @Test
    void all32AreInTheCatalogWithAClosedInputSchemaTheReferenceHintsAndAHostNeed() {
        assertThat(AndroidSpecs.ALL).hasSize(13);
        assertThat(BrowserSpecs.ALL).hasSize(12);
        assertThat(ChatSpecs.ALL).hasSize(7);
        assertThat(unqualified())
                .extracting(ToolSpec::name)
                .containsExactlyElementsOf(VALID.keySet().stream()
                        .filter(name -> !name.startsWith("lomi_chat_"))
                        .toList());
        for (ToolSpec<?> chat : ChatSpecs.ALL) {
            assertThat(chat.host()).as(chat.name() + " is served (issue 16)").isEqualTo(HostNeed.NONE);
            assertThat(chat.hints() + " " + chat.effect() + " " + chat.scope())
                    .as(chat.name())
                    .isEqualTo(HINTS_AND_EFFECT.get(chat.name()));
        }

        for (ToolSpec<?> spec : unqualified()) {
            String name = spec.name();
            if (name.startsWith("lomi_android_")) {
                assertThat(spec.host().android()).as(name).isTrue();
            } else {
                assertThat(spec.host()).as(name).isEqualTo(HostNeed.BROWSER);
            }
            assertThat(spec.hints() + " " + spec.effect() + " " + spec.scope())
                    .as(name)
                    .isEqualTo(HINTS_AND_EFFECT.get(name));
            assertThat(spec.title()).as(name).isNotBlank();
            if (spec.host().android()) {
                assertThat(spec.description())
                        .as(name + " is served wherever adb is: its description no longer says HOST_UNQUALIFIED")
                        .doesNotContain("HOST_UNQUALIFIED");
            } else {
                assertThat(spec.description()).as(name).contains("HOST_UNQUALIFIED");
            }
            JsonNode input = spec.inputSchema();
            assertThat(input.get("type").asString()).as(name).isEqualTo("object");
            assertThat(input.get("additionalProperties").asBoolean(true))
                    .as(name + " input is closed")
                    .isFalse();
            assertThat(input.propertyNames()).as(name).doesNotContain("oneOf", "anyOf", "allOf");
            assertThat(spec.outputSchema().get("oneOf").size())
                    .as(name + " ok|error")
                    .isEqualTo(2);
            if (spec.effect() == Effect.OP) {
                assertThat(spec.input()).as(name + " is durable").isAssignableTo(Durable.class);
                assertThat(spec.dataSchema().at("/properties/result/anyOf").size())
                        .as(name + " has a typed result")
                        .isGreaterThanOrEqualTo(3);
            }
        }
    }

    @Test
    void aReferenceShapedCallBindsAndABrokenOneIsRefusedAsInvalidArgument() {
        List<ToolSpec<?>> declared = new java.util.ArrayList<>(unqualified());
        declared.addAll(ChatSpecs.ALL);
        for (ToolSpec<?> spec : declared) {
            assertThat(bind(spec.name(), VALID.get(spec.name())))
                    .as(spec.name())
                    .isInstanceOf(spec.input());

            List<String> invalid = INVALID.get(spec.name());
            assertThatThrownBy(() -> bind(spec.name(), invalid.get(0)))
                    .as(spec.name())
                    .isInstanceOfSatisfying(LomiException.class, refused -> {
                        assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                        assertThat(refused.getMessage()).contains(invalid.get(1));
                    });
        }
    }

    @Test
    void absentOptionalFieldsTakeTheReferenceDefaults() {
        AndroidSpecs.SnapshotInput snapshot =
                (AndroidSpecs.SnapshotInput) bind("lomi_android_snapshot", VALID.get("lomi_android_snapshot"));
        AndroidSpecs.ScreenshotInput screenshot =
                (AndroidSpecs.ScreenshotInput) bind("lomi_android_screenshot", "{" + W + "," + GEN + "}");
        BrowserSpecs.OpenInput open =
                (BrowserSpecs.OpenInput) bind("lomi_browser_open", VALID.get("lomi_browser_open"));
        BrowserSpecs.NavigateInput navigate = (BrowserSpecs.NavigateInput) bind(
                "lomi_browser_navigate", VALID.get("lomi_browser_navigate").replace(",\"waitUntil\":\"commit\"", ""));
        BrowserSpecs.SnapshotInput dom =
                (BrowserSpecs.SnapshotInput) bind("lomi_browser_snapshot", VALID.get("lomi_browser_snapshot"));
        BrowserSpecs.WaitInput wait = (BrowserSpecs.WaitInput)
                bind("lomi_browser_wait", "{" + W + "," + BROWSER + ",\"condition\":{\"type\":\"load\"}}");
        BrowserSpecs.ScrollInput scroll =
                (BrowserSpecs.ScrollInput) bind("lomi_browser_scroll", VALID.get("lomi_browser_scroll"));
        BrowserSpecs.LogsInput logs = (BrowserSpecs.LogsInput) bind("lomi_browser_logs", "{" + W + "," + BROWSER + "}");
        BrowserSpecs.ScreenshotInput capture =
                (BrowserSpecs.ScreenshotInput) bind("lomi_browser_screenshot", VALID.get("lomi_browser_screenshot"));
        BrowserSpecs.DownloadInput download =
                (BrowserSpecs.DownloadInput) bind("lomi_browser_download", VALID.get("lomi_browser_download"));
        ChatSpecs.ListInput list = (ChatSpecs.ListInput) bind("lomi_chat_list", "{" + W + "}");
        ChatSpecs.ReadInput read = (ChatSpecs.ReadInput)
                bind("lomi_chat_read", "{" + W + ",\"conversationId\":\"c_1\",\"part\":{\"type\":\"draft\"}}");
        ChatSpecs.ExportInput export = (ChatSpecs.ExportInput) bind("lomi_chat_export", VALID.get("lomi_chat_export"));

        assertThat(List.of(snapshot.maxNodes(), snapshot.maxBytes(), screenshot.maxEdge(), screenshot.maxBytes()))
                .containsExactly(250, 32768L, 1280, 1048576L);
        assertThat(open.visible()).isTrue();
        assertThat(navigate.waitUntil()).isEqualTo(BrowserSpecs.WaitUntil.LOAD);
        assertThat(List.of(dom.maxNodes(), dom.maxBytes(), wait.timeoutMs())).containsExactly(100, 16384L, 5000L);
        assertThat(scroll.viewportRef()).isEqualTo("viewport");
        assertThat(scroll.deltaY().asDouble()).isEqualTo(10.5);
        assertThat(logs.logKind()).isEqualTo(BrowserSpecs.LogKind.JAVASCRIPT_ERROR);
        assertThat(logs.limit()).isEqualTo(50);
        assertThat(logs.cursor()).isEmpty();
        assertThat(List.of(capture.maxWidth(), capture.maxBytes(), download.maxBytes()))
                .containsExactly(1280, 1048576L, 4194304L);
        assertThat(List.of(list.offset(), list.limit())).containsExactly(0, 20);
        assertThat(read.startUtf16()).isZero();
        assertThat(read.maxChars()).isEqualTo(8192);
        assertThat(read.includeSendTarget()).isFalse();
        assertThat(read.part()).isInstanceOf(ChatSpecs.Draft.class);
        assertThat(export.maxChars()).isEqualTo(8192);
        assertThat(export.format()).isEqualTo(ChatSpecs.Format.MARKDOWN);
    }

    @Test
    void theReferenceUnionsBindToTheirVariants() {
        AndroidSpecs.Input touch = (AndroidSpecs.Input) bind("lomi_android_input", VALID.get("lomi_android_input"));
        assertThat(touch.event())
                .isEqualTo(new AndroidInputs.Touch(
                        AndroidInputs.CoordinateSpace.HARDWARE_DISPLAY, 0, 100, 200, AndroidInputs.TouchPhase.DOWN));
        assertThat(touch.inputSequence().asLong()).isEqualTo(1);
        String input = VALID.get("lomi_android_input");
        String touchEvent =
                input.substring(input.indexOf("{\"type\":\"touch\""), input.indexOf("},\"retryEpoch\"") + 1);
        for (Map.Entry<String, Class<?>> event : Map.<String, Class<?>>of(
                        "{\"type\":\"rotate\",\"quarterTurns\":1}",
                        AndroidInputs.Rotate.class,
                        "{\"type\":\"text\",\"text\":\"héllo\"}",
                        AndroidInputs.Text.class,
                        "{\"type\":\"key\",\"key\":\"KEYCODE_ENTER\",\"down\":true}",
                        AndroidInputs.Key.class,
                        "{\"type\":\"navigation\",\"key\":\"back\"}",
                        AndroidInputs.Navigation.class)
                .entrySet()) {
            assertThat(((AndroidSpecs.Input) bind("lomi_android_input", input.replace(touchEvent, event.getKey())))
                            .event())
                    .as(event.getKey())
                    .isInstanceOf(event.getValue());
        }
        assertThatThrownBy(() ->
                        bind("lomi_android_input", input.replace("\"inputSequence\":\"1\"", "\"inputSequence\":\"0\"")))
                .hasMessageContaining("inputSequence starts at 1");
        assertThatThrownBy(() -> bind(
                        "lomi_android_input",
                        input.replace(touchEvent, "{\"type\":\"navigation\",\"key\":\"back\",\"down\":true}")))
                .hasMessageContaining("down: unknown field");

        String plan = "{" + W + ",\"action\":";
        assertThat(((AndroidSpecs.SetupPlanInput) bind("lomi_android_setup_plan", plan + "{\"type\":\"inventory\"}}"))
                        .action())
                .isInstanceOf(AndroidInputs.Inventory.class);
        assertThat(((AndroidSpecs.SetupPlanInput)
                                bind(
                                        "lomi_android_setup_plan",
                                        plan + "{\"type\":\"prepare\",\"catalogRevision\":\"c1\","
                                                + "\"packages\":[{\"id\":\"system-images;android-35;google_apis;arm64-v8a\",\"revision\":\"9\"}],\"prepareTools\":true}}"))
                        .action())
                .isEqualTo(new AndroidInputs.Prepare(
                        new Token("c1"),
                        List.of(new AndroidInputs.PackageSelection(
                                "system-images;android-35;google_apis;arm64-v8a", "9")),
                        true));
        assertThatThrownBy(() -> bind(
                        "lomi_android_setup_plan",
                        plan + "{\"type\":\"catalog\",\"refresh\":true,\"offset\":32,\"limit\":32,"
                                + "\"expectedCatalogRevision\":\"c1\"}}"))
                .hasMessageContaining("refresh is allowed only at offset 0");

        String manage = "{" + W + "," + DURABLE + ",\"action\":";
        assertThat(((AndroidSpecs.DeviceManageInput)
                                bind(
                                        "lomi_android_device_manage",
                                        manage + "{\"type\":\"create\",\"expectedDevicesRevision\":"
                                                + "\"r1\",\"name\":\"Pixel 8\",\"image\":\"system-images;android-35;google_apis;arm64-v8a\",\"profile\":\"pixel_8\",\"hardware\":"
                                                + "{\"ramMib\":4096,\"cpuCount\":4,\"dataGib\":8,\"gpu\":\"auto\",\"quickBoot\":true}}}"))
                        .action())
                .isInstanceOf(AndroidInputs.Create.class);
        assertThat(((AndroidSpecs.DeviceManageInput)
                                bind("lomi_android_device_manage", manage + "{\"type\":\"recover\"}}"))
                        .action())
                .isInstanceOf(AndroidInputs.Recover.class);
        assertThat(((AndroidSpecs.DeviceManageInput) bind(
                                "lomi_android_device_manage",
                                manage + "{\"type\":\"restore_metadata\",\"file\":"
                                        + "\"preferences\",\"digest\":\"d1\",\"reset\":true}}"))
                        .action())
                .isInstanceOf(AndroidInputs.RestoreMetadata.class);
        assertThat(((AndroidSpecs.DeviceManageInput) bind(
                                "lomi_android_device_manage",
                                manage + "{\"type\":\"rollback_package\",\"packageId\":"
                                        + "\"platform-tools\",\"expectedManifestRevision\":\"m1\"}}"))
                        .action())
                .isInstanceOf(AndroidInputs.RollbackPackage.class);

        String open = "{" + W + "," + REV + "," + DURABLE + ",\"target\":";
        assertThat(((ChatSpecs.OpenInput)
                                bind("lomi_chat_open", open + "{\"type\":\"existing\",\"conversationId\":\"c_1\"}}"))
                        .target())
                .isEqualTo(new ChatSpecs.Existing(new ChatSpecs.ChatId("c_1")));
        assertThat(((ChatSpecs.OpenInput) bind("lomi_chat_open", open + "{\"type\":\"new\"}}")).target())
                .isInstanceOf(ChatSpecs.New.class);
        assertThatThrownBy(() -> bind("lomi_chat_open", open + "\"new\"}"))
                .as("the reference's target is {type} tagged, not a bare name")
                .hasMessageContaining("arguments.target");

        String wait = "{" + W + "," + BROWSER + ",\"condition\":";
        for (Map.Entry<String, Class<?>> condition : Map.<String, Class<?>>of(
                        "{\"type\":\"text\",\"text\":\"Saved\"}",
                        BrowserSpecs.TextCondition.class,
                        "{\"type\":\"url\",\"url\":\"https://example.com/done\"}",
                        BrowserSpecs.UrlCondition.class,
                        "{\"type\":\"load\"}",
                        BrowserSpecs.LoadCondition.class)
                .entrySet()) {
            assertThat(((BrowserSpecs.WaitInput) bind("lomi_browser_wait", wait + condition.getKey() + "}"))
                            .condition())
                    .isInstanceOf(condition.getValue());
        }
        BrowserSpecs.ScrollInput frame = (BrowserSpecs.ScrollInput) bind(
                "lomi_browser_scroll",
                VALID.get("lomi_browser_scroll")
                        .replace("\"deltaX\":0", "\"viewportRef\":\"f1-viewport\",\"deltaX\":0"));
        assertThat(frame.viewportRef()).isEqualTo("f1-viewport");
        assertThat(((BrowserSpecs.OpenInput) bind(
                                "lomi_browser_open",
                                VALID.get("lomi_browser_open").replace("https://example.com/", "about:blank")))
                        .url())
                .isEqualTo("about:blank");
    }

    @Test
    void pagingRulesOfTheReferenceAreCheckedAcrossFields() {
        assertThat(bind("lomi_chat_list", "{" + W + ",\"offset\":20,\"expectedRevision\":\"rev-1\"}"))
                .isInstanceOf(ChatSpecs.ListInput.class);
        assertThatThrownBy(() -> bind(
                        "lomi_chat_read",
                        "{" + W + ",\"conversationId\":\"c_1\",\"part\":{\"type\":\"draft\"},\"startUtf16\":8192}"))
                .hasMessageContaining("expectedRevision");
        assertThatThrownBy(() -> bind(
                        "lomi_chat_export",
                        "{" + W + ",\"conversationId\":\"c_1\",\"format\":\"json\",\"startUtf16\":8192}"))
                .hasMessageContaining("expectedRevision");
        assertThat(bind(
                        "lomi_android_setup_plan",
                        "{" + W
                                + ",\"action\":{\"type\":\"catalog\",\"offset\":32,\"limit\":32,\"expectedCatalogRevision\":"
                                + "\"c1\"}}"))
                .isInstanceOf(AndroidSpecs.SetupPlanInput.class);
    }

    @Test
    void typedOutputsEncodeWithTheirKind() {
        JsonNode opened = Encoder.encode(new BrowserSpecs.Opened(
                new dev.lomicontrol.core.WorkspaceId("w1"),
                "p1",
                "g1",
                "profile-1",
                "n1",
                Optional.of("b".repeat(32)),
                true,
                "chromium",
                "none",
                Optional.empty()));
        JsonNode devices = Encoder.encode(
                new AndroidResults.Devices(new dev.lomicontrol.core.WorkspaceId("w1"), "1", false, List.of()));

        assertThat(opened.get("kind").asString()).isEqualTo("browser");
        assertThat(opened.get("networkIsolation").asString()).isEqualTo("none");
        assertThat(devices.get("kind").asString()).isEqualTo("android_devices");
        assertThat(devices.get("hostQualified").asBoolean()).isFalse();
        assertThat(Encoder.encode(new AndroidResults.Setup(
                                new dev.lomicontrol.core.WorkspaceId("w1"),
                                new AndroidResults.CatalogView("c1", List.of(), Optional.empty())))
                        .at("/setup/type")
                        .asString())
                .isEqualTo("catalog");
    }

    @Test
    void theirScopesAreInTheFullGrant() {
        for (ToolSpec<?> spec : unqualified()) {
            assertThat(Scopes.all())
                    .as(spec.name() + " is served: its scope is in the full grant")
                    .contains(spec.scope().name());
        }
    }

    @Test
    void hostCapabilityReportsEveryUnqualifiedToolWithItsReason() {
        for (HostCapability capability : ToolCatalog.standard().capabilities()) {
            ToolSpec<?> spec = ToolCatalog.standard().find(capability.tool()).orElseThrow();
            assertThat(capability.need()).isEqualTo(spec.host());
            assertThat(capability.qualified())
                    .as(capability.tool())
                    .isEqualTo(HostQualification.reason(spec).isEmpty());
            assertThat(capability.reason()).as(capability.tool()).isEqualTo(HostQualification.reason(spec));
        }
        HostCapability android =
                ToolCatalog.standard().capability("lomi_android_stop").orElseThrow();
        assertThat(android.reason()).isEqualTo(HostQualification.reason(HostNeed.ANDROID_EMULATOR));
        assertThat(ToolCatalog.standard()
                        .capability("lomi_android_list")
                        .orElseThrow()
                        .qualified())
                .as("lomi_android_list is served wherever adb is found")
                .isEqualTo(HostQualification.reason(HostNeed.ANDROID_DEVICES).isEmpty());
        assertThat(ToolCatalog.standard()
                        .capability("lomi_chat_send")
                        .orElseThrow()
                        .qualified())
                .isTrue();
        assertThat(ToolCatalog.standard()
                        .capability("lomi_browser_open")
                        .orElseThrow()
                        .qualified())
                .as("Chromium is installed (apt-get install -y " + "chromium-headless-shell)")
                .isTrue();
        assertThat(ToolCatalog.standard()
                        .capability("lomi_operation_get")
                        .orElseThrow()
                        .qualified())
                .isTrue();
        assertThat(ToolCatalog.standard().capability("lomi_nothing")).isEmpty();
    }
}
