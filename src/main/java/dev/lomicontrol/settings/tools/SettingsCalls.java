package dev.lomicontrol.settings.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.settings.SettingsPlan;
import dev.lomicontrol.settings.SettingsView;
import dev.lomicontrol.settings.api.SettingsResults;
import dev.lomicontrol.settings.api.SettingsSpecs;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Tag;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Objects;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Settings tools (SPEC §10 "Settings"): read a section with its {@code settingsRevision}; update is a
 * compare-and-set whose exact before/after plan the admin approves; open records a request for the
 * admin's attention. The {@code agentControl} section is a read-only view.
 */
@Component
public final class SettingsCalls implements ToolFeature {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Settings settings;
    private final WorkspaceAccess workspaces;
    private final OperationRunner runner;
    private final Layout layout;
    private final Clock clock;
    private final DecisionBoard board;
    private final SecureRandom random = new SecureRandom();

    public SettingsCalls(
            Settings settings,
            WorkspaceAccess workspaces,
            OperationRunner runner,
            Layout layout,
            Clock clock,
            DecisionBoard board) {
        this.board = board;
        this.settings = settings;
        this.workspaces = workspaces;
        this.runner = runner;
        this.layout = layout;
        this.clock = clock;
    }

    public SettingsResults.Snapshot read(Session session, SettingsSpecs.ReadInput in) {
        workspaces.resolve(session, in.workspaceId());
        String section = switch (in.section()) {
            case EDITOR -> "editor";
            case TERMINAL -> "terminal";
            case AGENT_CONTROL -> "agentControl";
            case KEYBINDS ->
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "section keybinds: this host has no keyboard shortcuts "
                                + "to read (there is no native window); readable sections are editor, terminal and agentControl");
            case THEMES ->
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "section themes: this host has no themes to read (there is "
                                + "no native window); readable sections are editor, terminal and agentControl");
        };
        SettingsView view = settings.read(section);
        if (in.expectedRevision().isPresent() && !in.expectedRevision().get().equals(view.settingsRevision())) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    section + " settings are at " + view.settingsRevision() + ", not "
                            + in.expectedRevision().get());
        }
        return new SettingsResults.Snapshot(
                section(view),
                values(view),
                view.settingsRevision(),
                view.section().equals("agentControl"));
    }

    private static SettingsSpecs.HostSection section(SettingsView view) {
        switch (view.section()) {
            case "editor":
                return SettingsSpecs.HostSection.EDITOR;
            case "terminal":
                return SettingsSpecs.HostSection.TERMINAL;
            default:
                return SettingsSpecs.HostSection.AGENT_CONTROL;
        }
    }

    /** The section's values as its typed record. */
    private static SettingsResults.Values values(SettingsView view) {
        JsonNode values = view.values();
        switch (view.section()) {
            case "editor":
                return new SettingsResults.EditorValues(
                        values.path("tabSize").intValue(),
                        values.path("insertSpaces").booleanValue(),
                        values.path("insertFinalNewline").booleanValue());
            case "terminal":
                return new SettingsResults.TerminalValues(
                        values.path("defaultProfile").asString("bash").equals("zsh")
                                ? SettingsSpecs.Profile.ZSH
                                : SettingsSpecs.Profile.BASH,
                        values.path("scrollbackBytes").intValue());
            default:
                return new SettingsResults.AgentControlValues(
                        values.path("yolo").asBoolean(false),
                        values.path("instanceId").asString(""));
        }
    }

    /** The reference's tagged patch as the section and {field: value} it changes here, or UNSUPPORTED_CAPABILITY naming what has no meaning. */
    private static Change change(SettingsSpecs.Patch patch) {
        if (patch instanceof SettingsSpecs.EditorTabSize tab) {
            return new Change("editor", JSON.objectNode().put("tabSize", tab.value()));
        }
        if (patch instanceof SettingsSpecs.EditorInsertSpaces spaces) {
            return new Change("editor", JSON.objectNode().put("insertSpaces", spaces.value()));
        }
        if (patch instanceof SettingsSpecs.EditorInsertFinalNewline newline) {
            return new Change("editor", JSON.objectNode().put("insertFinalNewline", newline.value()));
        }
        if (patch instanceof SettingsSpecs.TerminalFieldPatch field) {
            String name = field.field();
            if (!field.terminalField().ours()) {
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "terminal_field " + name + ": this host has no native terminal view whose "
                                + "appearance or behaviour it could set; its terminal fields are defaultProfile and scrollbackBytes");
            }
            JsonNode value = field.value()
                    .orElseThrow(() -> new LomiException(
                            ErrorCode.INVALID_ARGUMENT, "arguments.patch.value: is required for " + name));
            ObjectNode fields = JSON.objectNode();
            fields.set(name, value);
            return new Change("terminal", fields);
        }
        String type = Objects.requireNonNull(
                        patch.getClass().getAnnotation(Tag.class), "every patch variant names its type")
                .value();
        String what = patch instanceof SettingsSpecs.ThemeBuiltin || patch instanceof SettingsSpecs.ThemeAppearance
                ? "themes (there is no native window to theme)"
                : "keyboard shortcuts (there is no native window)";
        throw new LomiException(
                ErrorCode.UNSUPPORTED_CAPABILITY,
                "patch type " + type + ": this host has no " + what
                        + "; settable here are editor_tab_size, editor_insert_spaces, editor_insert_final_newline and terminal_field");
    }

    private record Change(String section, ObjectNode fields) {}

    public ObjectNode update(Session session, SettingsSpecs.UpdateInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        Change change = change(in.patch());
        String section = change.section();
        String expectedSettings = in.expectedSettingsRevision();
        long expected = in.expectedRevision().asLong();
        @Nullable SettingsPlan plan;
        @Nullable LomiException refusal;
        try {
            plan = settings.plan(section, change.fields(), expectedSettings);
            refusal = null;
        } catch (LomiException e) {
            plan = null;
            refusal = e;
        }
        SettingsPlan planned = plan;
        LomiException refused = refusal;
        ObjectNode shown = JSON.objectNode();
        shown.put("section", section);
        shown.put("expectedSettingsRevision", expectedSettings);
        if (planned != null) {
            shown.set("before", planned.before());
            shown.set("after", planned.after());
        }
        shown.put("client", session.clientLabel());
        String summary = "change " + section + " settings for " + session.clientLabel()
                + (planned == null ? "" : ": " + String.join(", ", planned.changedFields()));
        return runner.afterApproval(
                OperationRunner.Request.of(
                        session, SettingsSpecs.UPDATE, in, listed, section, OptionalLong.of(expected)),
                () -> {
                    Revisions.require(expected, layout.revision());
                    if (refused != null) {
                        throw refused;
                    }
                },
                summary,
                shown,
                operation -> {
                    SettingsPlan approved =
                            Objects.requireNonNull(planned, "admission refuses a change without a plan");
                    SettingsView after = settings.apply(approved);
                    return Encoder.encode(new SettingsResults.Updated(
                            section(after),
                            values(after),
                            after.settingsRevision(),
                            approved.expectedSettingsRevision(),
                            true));
                });
    }

    public ObjectNode open(Session session, SettingsSpecs.OpenInput in) {
        WorkspaceAccess.Listed listed = workspaces.resolve(session, in.workspaceId());
        String page = in.page().wire();
        switch (in.page()) {
            case EDITOR, TERMINAL, AGENT_CONTROL -> {}
            default ->
                throw new LomiException(
                        ErrorCode.UNSUPPORTED_CAPABILITY,
                        "page " + page + ": this host has no native Settings window " + "and its admin console has no "
                                + page + " page; the pages here are editor, terminal and agent-control");
        }
        long expected = in.expectedRevision().asLong();
        return runner.immediate(
                OperationRunner.Request.of(session, SettingsSpecs.OPEN, in, listed, page, OptionalLong.of(expected)),
                () -> Revisions.require(expected, layout.revision()),
                operation -> {
                    String id = "req-" + Ids.randomHex(random, 8);
                    board.notice(clock.instant() + "  " + id + "  " + session.clientLabel()
                            + " asks you to look at the " + page + " settings");
                    return Encoder.encode(
                            new SettingsResults.Opened(listed.workspace().id(), page, id, true));
                });
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(SettingsSpecs.READ, this::read);
        handlers.on(SettingsSpecs.UPDATE, this::update);
        handlers.on(SettingsSpecs.OPEN, this::open);
    }
}
