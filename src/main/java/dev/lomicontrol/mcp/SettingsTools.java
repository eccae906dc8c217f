package dev.lomicontrol.mcp;

import static dev.lomicontrol.mcp.Schemas.anyObject;
import static dev.lomicontrol.mcp.Schemas.bool;
import static dev.lomicontrol.mcp.Schemas.constant;
import static dev.lomicontrol.mcp.Schemas.exactlyOne;
import static dev.lomicontrol.mcp.Schemas.form;
import static dev.lomicontrol.mcp.Schemas.integer;
import static dev.lomicontrol.mcp.Schemas.object;
import static dev.lomicontrol.mcp.Schemas.oneOfStrings;
import static dev.lomicontrol.mcp.Schemas.string;
import static dev.lomicontrol.mcp.Schemas.token;

import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Settings tools (SPEC §9, §10 Settings; reference fields of research/lomi.md §1m): read a section,
 * ask to change it (compare-and-set on {@code settingsRevision}, then the admin approves the exact
 * before/after plan), or ask the admin to look at a settings page. The agentControl section is a
 * read-only view: an agent can never widen its own grant.
 */
final class SettingsTools {

    static final String READ = "lomi_settings_read";
    static final String UPDATE = "lomi_settings_update";
    static final String OPEN = "lomi_settings_open";

    static final List<String> EDITOR_FIELDS = List.of("tabSize", "insertSpaces", "insertFinalNewline");
    static final List<String> TERMINAL_FIELDS = List.of("defaultProfile", "scrollbackBytes");
    /** {@code <section>:<n>}: the section and a decimal counter that grows with every change to it. */
    static final String SETTINGS_REVISION_PATTERN = "^(editor|terminal|agentControl):(0|[1-9][0-9]*)$";

    private SettingsTools() {}

    static List<ToolDefinition> all() {
        return List.of(read(), update(), open());
    }

    static ObjectNode settingsRevision(String description) {
        return string(8, 33, SETTINGS_REVISION_PATTERN, description);
    }

    private static ToolDefinition read() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("section", oneOfStrings("which section", "editor", "terminal", "agentControl")).require("workspaceId", "section")
                .closed().build();
        ObjectNode data = object().property("kind", constant("settings"))
                .property("section", oneOfStrings("the section read", "editor", "terminal", "agentControl"))
                .property("values", anyObject("the section's values: editor {tabSize, insertSpaces, insertFinalNewline}, terminal "
                        + "{defaultProfile, scrollbackBytes}, agentControl (this client's grant, read-only)"))
                .property("settingsRevision", settingsRevision("the section's revision; send it as expectedSettingsRevision"))
                .property("readOnly", bool("whether the section cannot be changed through lomi_settings_update"))
                .require("kind", "section", "values", "settingsRevision", "readOnly").build();
        return ToolDefinition.broker(READ, "Read settings",
                "Reads one settings section (editor, terminal, or the read-only agentControl view of this client's grant) with its "
                        + "settingsRevision.",
                Effect.RO, "settings.read", input, data);
    }

    private static ToolDefinition update() {
        ObjectNode patch = object().property("tabSize", integer(1, 16, "editor: spaces per tab (1-16)"))
                .property("insertSpaces", bool("editor: indent with spaces"))
                .property("insertFinalNewline", bool("editor: end a saved file with a newline"))
                .property("defaultProfile", oneOfStrings("terminal: the shell of new terminals", "bash", "zsh"))
                .property("scrollbackBytes", integer(65536, 4194304, "terminal: output kept per terminal, in bytes (64 KiB to 4 MiB)"))
                .closed().description("at least one field, all of the chosen section").build();
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("section", oneOfStrings("the section to change", "editor", "terminal")).property("patch", patch)
                .property("expectedSettingsRevision", settingsRevision("the settingsRevision from lomi_settings_read this change is based on"))
                .require("workspaceId", "section", "patch", "expectedSettingsRevision").expectedRevision().durable().closed().build();
        ObjectNode variants = exactlyOne(section("editor", EDITOR_FIELDS), section("terminal", TERMINAL_FIELDS));
        return ToolDefinition.broker(UPDATE, "Change settings",
                "Asks to change fields of one section: editor {tabSize 1-16, insertSpaces, insertFinalNewline} or terminal {defaultProfile "
                        + "bash|zsh, scrollbackBytes 65536-4194304}, compare-and-set on expectedSettingsRevision. The operation waits in "
                        + "awaiting_user until the admin approves the exact before/after plan (console: decision approve|reject "
                        + "<operationId>); rejected: failed with SCOPE_DENIED. Its result is {kind:\"settings_updated\", section, values, "
                        + "settingsRevision}.",
                Effect.OP, "settings.write", input, OperationTools.operation()).withConstraint(variants);
    }

    /**
     * One variant: the section pinned, a patch of at least one of that section's fields and no
     * other, and a revision of that section (the broker refuses another section's as INVALID_ARGUMENT too).
     */
    private static ObjectNode section(String section, List<String> fields) {
        ObjectNode patch = form(section + " fields: " + String.join(", ", fields), fields).build();
        ArrayNode atLeastOne = patch.putArray("anyOf");
        fields.forEach(field -> atLeastOne.add(object().require(field).description("with " + field).build()));
        ObjectNode sameSection = McpJson.object();
        sameSection.put("pattern", "^" + section + ":");
        return object().property("section", constant(section)).property("patch", patch).property("expectedSettingsRevision", sameSection)
                .require("section", "patch").description("section " + section + ", patch {" + String.join("?, ", fields) + "?} (at least one), "
                        + "expectedSettingsRevision " + section + ":<n>").build();
    }

    private static ToolDefinition open() {
        ObjectNode input = object().property("workspaceId", token("its workspace"))
                .property("page", oneOfStrings("the page to look at", "editor", "terminal", "agent-control")).require("workspaceId", "page")
                .expectedRevision().durable().closed().build();
        return ToolDefinition.broker(OPEN, "Ask the admin to open settings",
                "Records a request for the admin's attention to a settings page (shown in the console); changes nothing. Returns an "
                        + "operation; its result is {kind:\"settings_opened\", page, requestId}.",
                Effect.OP, "settings.open", input, OperationTools.operation());
    }
}
