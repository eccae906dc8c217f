package dev.lomicontrol.settings.api;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.settings.api.SettingsSpecs.HostSection;
import dev.lomicontrol.settings.api.SettingsSpecs.Profile;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Untagged;

/**
 * What the settings tools answer (SPEC §10 Settings): a section's values and the output records of {@link SettingsSpecs}' tools, under the simple names their schemas use.
 */
public final class SettingsResults {

    private SettingsResults() {}

    /** A section's values: exactly its fields. */
    @Untagged
    public sealed interface Values {}

    public record EditorValues(
            @Doc("spaces per tab, reported to agents (the broker never reformats)") @Range(min = 1, max = 16)
            int tabSize,

            @Doc("indent with spaces") boolean insertSpaces,

            @Doc("a save ends a non-empty text with a newline")
            boolean insertFinalNewline)
            implements Values {}

    public record TerminalValues(
            @Doc("the shell of new terminals") Profile defaultProfile,

            @Doc("output kept per terminal, in bytes") @Range(min = 65_536, max = 4_194_304)
            int scrollbackBytes)
            implements Values {}

    public record AgentControlValues(
            @Doc("whether the admin approves every operation at once (YOLO)")
            boolean yolo,

            @Doc("this broker's instance") String instanceId)
            implements Values {}

    @Tag("settings")
    public record Snapshot(
            @Doc("the section read") HostSection section,

            @Doc("every field of the section with its value")
            Values values,

            @Doc(
                    "the compare-and-set token '<section>:<n>' (the reference's revision); send it as expectedSettingsRevision")
            @Matches(SettingsSpecs.REVISION)
            String settingsRevision,

            @Doc("whether the section is a read-only view (agentControl)")
            boolean readOnly) {}

    @Tag("settings_updated")
    public record Updated(
            @Doc("the section changed") HostSection section,
            @Doc("every field of the section afterwards") Values values,

            @Doc("the section's revision afterwards (the reference's storedRevision)") @Matches(SettingsSpecs.REVISION)
            String settingsRevision,

            @Doc("the revision the change was based on (the reference's previousStoredRevision)")
            @Matches(SettingsSpecs.REVISION)
            String previousSettingsRevision,

            @Doc("always true: the admin approved and it was applied")
            boolean applied) {}

    @Tag("settings_opened")
    public record Opened(
            WorkspaceId workspaceId,
            @Doc("the page asked for") String page,

            @Doc("the id of the request in the admin console's notices")
            String requestId,

            @Doc("always true: the request was recorded; no preference was changed")
            boolean requested) {}
}
