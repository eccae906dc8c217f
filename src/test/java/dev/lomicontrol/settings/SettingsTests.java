package dev.lomicontrol.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.testing.MutableClock;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.LongNode;
import tools.jackson.databind.node.ObjectNode;

/** Settings on a real SQLite ledger: compare-and-set, plan-then-apply, validation and persistence. */
class SettingsTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    final MutableClock clock = MutableClock.startingAt("2026-11-30T10:00:00Z");
    Ledger ledger;
    Settings settings;

    @BeforeEach
    void open() {
        ledger = openLedger();
        settings = new Settings(ledger, clock);
    }

    @AfterEach
    void close() {
        ledger.close();
    }

    Ledger openLedger() {
        return Ledger.open(temp.resolve("store"), LedgerProperties.defaults(), clock, new SecureRandom());
    }

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    static ErrorCode codeOf(ThrowingCallable call) {
        LomiException e = catchThrowableOfType(LomiException.class, call);
        assertThat(e).as("expected a LomiException").isNotNull();
        return e.code();
    }

    @Test
    void untouchedSectionsReadTheirDefaultsAtRevisionOne() {
        SettingsView editor = settings.read("editor");
        assertThat(editor.values())
                .isEqualTo(json("{\"tabSize\":4,\"insertSpaces\":true,\"insertFinalNewline\":true}"));
        assertThat(editor.settingsRevision()).isEqualTo("editor:1");
        assertThat(settings.read("terminal").values())
                .isEqualTo(json("{\"defaultProfile\":\"bash\",\"scrollbackBytes\":524288}"));
        assertThat(settings.editor()).isEqualTo(EditorSettings.DEFAULTS);
        assertThat(settings.terminal()).isEqualTo(TerminalSettings.DEFAULTS);
    }

    @Test
    void aPlanShowsBeforeAndAfterButChangesNothingUntilApplied() {
        List<String> heard = new ArrayList<>();
        settings.onChange(heard::add);

        SettingsPlan plan = settings.plan("editor", json("{\"tabSize\":2}"), "editor:1");

        assertThat(plan.before().get("tabSize").intValue()).isEqualTo(4);
        assertThat(plan.after()).isEqualTo(json("{\"tabSize\":2,\"insertSpaces\":true,\"insertFinalNewline\":true}"));
        assertThat(plan.changedFields()).containsExactly("tabSize");
        assertThat(settings.read("editor").settingsRevision()).isEqualTo("editor:1");
        assertThat(settings.editor().tabSize()).isEqualTo(4);
        assertThat(heard).isEmpty();

        SettingsView applied = settings.apply(plan);

        assertThat(applied.settingsRevision()).isEqualTo("editor:2");
        assertThat(settings.editor()).isEqualTo(new EditorSettings(2, true, true));
        assertThat(settings.read("editor")).isEqualTo(applied);
        assertThat(heard).containsExactly("editor");
    }

    @Test
    void aStaleRevisionIsRefusedWhenPlanning() {
        settings.apply(settings.plan("terminal", json("{\"defaultProfile\":\"zsh\"}"), "terminal:1"));

        assertThat(codeOf(() -> settings.plan("terminal", json("{\"scrollbackBytes\":65536}"), "terminal:1")))
                .isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(settings.terminal()).isEqualTo(new TerminalSettings("zsh", 524_288));
    }

    @Test
    void applyingAfterAConcurrentChangeIsRefusedAndKeepsTheOtherChange() {
        SettingsPlan first = settings.plan("editor", json("{\"insertSpaces\":false}"), "editor:1");
        SettingsPlan second = settings.plan("editor", json("{\"tabSize\":8}"), "editor:1");
        settings.apply(first);

        assertThat(codeOf(() -> settings.apply(second))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(settings.read("editor").settingsRevision()).isEqualTo("editor:2");
        assertThat(settings.editor()).isEqualTo(new EditorSettings(4, false, true));
    }

    @Test
    void aPlanStaysStaleEvenWhenTheValuesChangedAndChangedBack() {
        SettingsPlan old = settings.plan("editor", json("{\"tabSize\":8}"), "editor:1");
        settings.apply(settings.plan("editor", json("{\"tabSize\":2}"), "editor:1"));
        settings.apply(settings.plan("editor", json("{\"tabSize\":4}"), "editor:2"));
        assertThat(settings.read("editor").values()).isEqualTo(old.before());

        assertThat(codeOf(() -> settings.apply(old))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(settings.read("editor").settingsRevision()).isEqualTo("editor:3");
        assertThat(settings.editor().tabSize()).isEqualTo(4);
    }

    @Test
    void concurrentAppliesOfPlansFromOneRevisionLetExactlyOneWin() throws Exception {
        int racers = 8;
        List<SettingsPlan> plans = new ArrayList<>();
        for (int i = 0; i < racers; i++) {
            plans.add(settings.plan("editor", json("{\"tabSize\":" + (i + 5) + "}"), "editor:1"));
        }
        List<Thread> threads = new ArrayList<>();
        List<ErrorCode> refusals = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicReference<SettingsView> winner = new AtomicReference<>();
        for (SettingsPlan plan : plans) {
            Thread thread = new Thread(() -> {
                try {
                    winner.set(settings.apply(plan));
                } catch (LomiException e) {
                    refusals.add(e.code());
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread t : threads) {
            t.join(30_000);
        }

        assertThat(refusals).hasSize(racers - 1).containsOnly(ErrorCode.REVISION_CONFLICT);
        assertThat(settings.read("editor")).isEqualTo(winner.get());
        assertThat(winner.get().settingsRevision()).isEqualTo("editor:2");
    }

    @Test
    void appliedValuesSurviveReopeningTheLedger() throws Exception {
        settings.apply(settings.plan(
                "terminal", json("{\"defaultProfile\":\"zsh\",\"scrollbackBytes\":4194304}"), "terminal:1"));
        clock.advance(Duration.ofMinutes(5));
        settings.apply(settings.plan("editor", json("{\"insertFinalNewline\":false}"), "editor:1"));
        ledger.close();

        ledger = openLedger();
        Settings reopened = new Settings(ledger, clock);

        assertThat(reopened.terminal()).isEqualTo(new TerminalSettings("zsh", 4_194_304));
        assertThat(reopened.read("terminal").settingsRevision()).isEqualTo("terminal:2");
        assertThat(reopened.editor()).isEqualTo(new EditorSettings(4, true, false));
        String stored = ledger.read(c -> {
            try (PreparedStatement s = c.prepareStatement(
                            "SELECT value, updated_at FROM setting_section WHERE section = 'editor'");
                    ResultSet rs = s.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(2)).isEqualTo(clock.millis());
                return rs.getString(1);
            }
        });
        assertThat(stored).isEqualTo("{\"insertFinalNewline\":false,\"insertSpaces\":true,\"tabSize\":4}");
    }

    @Test
    void unknownFieldsBadValuesAndEmptyOrNoOpPatchesAreInvalid() {
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabWidth\":2}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":0}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":17}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":2.5}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":\"2\"}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"insertSpaces\":\"yes\"}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("terminal", json("{\"defaultProfile\":\"fish\"}"), "terminal:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("terminal", json("{\"scrollbackBytes\":65535}"), "terminal:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("terminal", json("{\"scrollbackBytes\":4194305}"), "terminal:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("[]"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":4}"), "editor:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":2}"), "terminal:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("editor", json("{\"tabSize\":2}"), "editor:01")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.plan("keybinds", json("{\"x\":1}"), "keybinds:1")))
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(codeOf(() -> settings.read("themes"))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(settings.read("editor").settingsRevision()).isEqualTo("editor:1");
    }

    @Test
    void anIntegerOfAnyNumberTypeIsTheSameValue() {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.set("tabSize", LongNode.valueOf(4));
        assertThat(codeOf(() -> settings.plan("editor", patch, "editor:1")))
                .as("no-op even as a long")
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        patch.set("tabSize", LongNode.valueOf(3));
        assertThat(settings.apply(settings.plan("editor", patch, "editor:1"))
                        .values()
                        .get("tabSize")
                        .intValue())
                .isEqualTo(3);
    }

    @Test
    void theAgentControlSectionIsAReadOnlyViewOfWhatTheCallerSupplies() {
        AtomicReference<JsonNode> supplied = new AtomicReference<>(json("{\"yolo\":false,\"sessions\":2}"));
        Settings withView = new Settings(ledger, clock, supplied::get);

        SettingsView first = withView.read("agentControl");
        assertThat(first.values()).isEqualTo(json("{\"yolo\":false,\"sessions\":2}"));
        assertThat(withView.read("agentControl").settingsRevision()).isEqualTo(first.settingsRevision());
        supplied.set(json("{\"yolo\":true,\"sessions\":2}"));
        assertThat(withView.read("agentControl").settingsRevision()).isNotEqualTo(first.settingsRevision());

        assertThat(codeOf(() -> withView.plan("agentControl", json("{\"yolo\":false}"), first.settingsRevision())))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
        SettingsPlan forged = new SettingsPlan("agentControl", "agentControl:1", json("{}"), json("{\"yolo\":false}"));
        assertThat(codeOf(() -> withView.apply(forged))).isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void aForgedPlanWithAnInvalidOrMismatchedStateIsRefused() {
        SettingsPlan invalidAfter = new SettingsPlan(
                "editor",
                "editor:1",
                settings.read("editor").values(),
                json("{\"tabSize\":99,\"insertSpaces\":true,\"insertFinalNewline\":true}"));
        assertThat(codeOf(() -> settings.apply(invalidAfter))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        SettingsPlan extraField = new SettingsPlan(
                "editor",
                "editor:1",
                settings.read("editor").values(),
                json("{\"tabSize\":2,\"insertSpaces\":true,\"insertFinalNewline\":true,\"x\":1}"));
        assertThat(codeOf(() -> settings.apply(extraField))).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        SettingsPlan wrongBefore = new SettingsPlan(
                "editor",
                "editor:1",
                json("{\"tabSize\":8,\"insertSpaces\":true,\"insertFinalNewline\":true}"),
                json("{\"tabSize\":2,\"insertSpaces\":true,\"insertFinalNewline\":true}"));
        assertThat(codeOf(() -> settings.apply(wrongBefore))).isEqualTo(ErrorCode.REVISION_CONFLICT);
        assertThat(settings.read("editor").settingsRevision()).isEqualTo("editor:1");
    }

    @Test
    void aThrowingListenerDoesNotStopTheOthersOrTheChange() {
        List<String> heard = new ArrayList<>();
        settings.onChange(section -> {
            throw new IllegalStateException("listener bug");
        });
        settings.onChange(heard::add);

        settings.apply(settings.plan("terminal", json("{\"scrollbackBytes\":65536}"), "terminal:1"));

        assertThat(heard).containsExactly("terminal");
        assertThat(settings.terminal().scrollbackBytes()).isEqualTo(65_536);
    }
}
