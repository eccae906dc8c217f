package dev.lomicontrol.settings.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.WireName;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The settings tools (SPEC §10 Settings, in the reference's shapes of {@code settings.rs}): read a
 * section with its {@code settingsRevision}; update one setting through the reference's tagged
 * {@code patch.type}, a compare-and-set whose exact before/after plan the admin approves; open
 * records a request for the admin's attention. What has no meaning on this host (keybindings,
 * themes, the terminal's appearance and behaviour, the pages of the native Settings window) is
 * accepted by the schema and answered UNSUPPORTED_CAPABILITY naming it. Our own settings stay
 * reachable: {@code editor_insert_final_newline} (a variant of ours) and {@code terminal_field} with
 * the fields {@code defaultProfile} and {@code scrollbackBytes}.
 */
public final class SettingsSpecs {

    private SettingsSpecs() {}

    /** The reference's sections plus ours (agentControl: a read-only view of this broker's control settings). */
    public enum Section {
        EDITOR,
        TERMINAL,
        KEYBINDS,
        THEMES,
        @WireName("agentControl")
        AGENT_CONTROL
    }

    public record ReadInput(
            WorkspaceId workspaceId,

            Section section,

            @Doc("keybinds only") @Range(min = 0, max = 4096) @Default("0")
            int offset,

            @Doc("keybinds only") @Range(min = 1, max = 200) @Default("100")
            int limit,

            @Doc("null = any") @Len(min = 1, max = 128) Optional<String> expectedRevision) {

        public ReadInput {
            if (offset != 0 && section != Section.KEYBINDS) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "offset pages the keybinds section only");
            }
        }
    }

    /** A settingsRevision: {@code <section>:<n>}. */
    public static final String REVISION = "(editor|terminal|agentControl):(0|[1-9][0-9]{0,14})";

    /** The sections this host has. */
    public enum HostSection {
        EDITOR,
        TERMINAL,
        @WireName("agentControl")
        AGENT_CONTROL
    }

    /** The shells a terminal can start. */
    public enum Profile {
        BASH,
        ZSH
    }

    /** The reference's built-in themes. */
    public enum BuiltinTheme {
        LOMI,
        DEEPMONO
    }

    /** The reference's theme appearance. */
    public enum Appearance {
        SYSTEM,
        LIGHT,
        DARK
    }

    /** The reference's terminal fields, then ours ({@code defaultProfile}, {@code scrollbackBytes}), the only ones this host has. */
    public enum TerminalField {
        @WireName("appearance.fontFamily")
        APPEARANCE_FONT_FAMILY,
        @WireName("appearance.fontSize")
        APPEARANCE_FONT_SIZE,
        @WireName("appearance.fontWeight")
        APPEARANCE_FONT_WEIGHT,
        @WireName("appearance.fontWeightBold")
        APPEARANCE_FONT_WEIGHT_BOLD,
        @WireName("appearance.lineHeight")
        APPEARANCE_LINE_HEIGHT,
        @WireName("appearance.letterSpacing")
        APPEARANCE_LETTER_SPACING,
        @WireName("appearance.cursorWidth")
        APPEARANCE_CURSOR_WIDTH,
        @WireName("appearance.cursorStyle")
        APPEARANCE_CURSOR_STYLE,
        @WireName("appearance.cursorInactiveStyle")
        APPEARANCE_CURSOR_INACTIVE_STYLE,
        @WireName("appearance.cursorBlink")
        APPEARANCE_CURSOR_BLINK,
        @WireName("appearance.minimumContrastRatio")
        APPEARANCE_MINIMUM_CONTRAST_RATIO,
        @WireName("appearance.drawBoldTextInBrightColors")
        APPEARANCE_DRAW_BOLD_TEXT_IN_BRIGHT_COLORS,
        @WireName("appearance.colors.background")
        APPEARANCE_COLORS_BACKGROUND,
        @WireName("appearance.colors.foreground")
        APPEARANCE_COLORS_FOREGROUND,
        @WireName("appearance.colors.cursor")
        APPEARANCE_COLORS_CURSOR,
        @WireName("appearance.colors.cursorAccent")
        APPEARANCE_COLORS_CURSOR_ACCENT,
        @WireName("appearance.colors.selectionBackground")
        APPEARANCE_COLORS_SELECTION_BACKGROUND,
        @WireName("appearance.colors.selectionForeground")
        APPEARANCE_COLORS_SELECTION_FOREGROUND,
        @WireName("appearance.colors.selectionInactiveBackground")
        APPEARANCE_COLORS_SELECTION_INACTIVE_BACKGROUND,
        @WireName("appearance.colors.black")
        APPEARANCE_COLORS_BLACK,
        @WireName("appearance.colors.red")
        APPEARANCE_COLORS_RED,
        @WireName("appearance.colors.green")
        APPEARANCE_COLORS_GREEN,
        @WireName("appearance.colors.yellow")
        APPEARANCE_COLORS_YELLOW,
        @WireName("appearance.colors.blue")
        APPEARANCE_COLORS_BLUE,
        @WireName("appearance.colors.magenta")
        APPEARANCE_COLORS_MAGENTA,
        @WireName("appearance.colors.cyan")
        APPEARANCE_COLORS_CYAN,
        @WireName("appearance.colors.white")
        APPEARANCE_COLORS_WHITE,
        @WireName("appearance.colors.brightBlack")
        APPEARANCE_COLORS_BRIGHT_BLACK,
        @WireName("appearance.colors.brightRed")
        APPEARANCE_COLORS_BRIGHT_RED,
        @WireName("appearance.colors.brightGreen")
        APPEARANCE_COLORS_BRIGHT_GREEN,
        @WireName("appearance.colors.brightYellow")
        APPEARANCE_COLORS_BRIGHT_YELLOW,
        @WireName("appearance.colors.brightBlue")
        APPEARANCE_COLORS_BRIGHT_BLUE,
        @WireName("appearance.colors.brightMagenta")
        APPEARANCE_COLORS_BRIGHT_MAGENTA,
        @WireName("appearance.colors.brightCyan")
        APPEARANCE_COLORS_BRIGHT_CYAN,
        @WireName("appearance.colors.brightWhite")
        APPEARANCE_COLORS_BRIGHT_WHITE,
        @WireName("appearance.colors.searchMatchBackground")
        APPEARANCE_COLORS_SEARCH_MATCH_BACKGROUND,
        @WireName("appearance.colors.searchActiveMatchBackground")
        APPEARANCE_COLORS_SEARCH_ACTIVE_MATCH_BACKGROUND,
        @WireName("appearance.colors.searchMatchBorder")
        APPEARANCE_COLORS_SEARCH_MATCH_BORDER,
        @WireName("appearance.colors.searchActiveMatchBorder")
        APPEARANCE_COLORS_SEARCH_ACTIVE_MATCH_BORDER,
        @WireName("behavior.scrollback")
        BEHAVIOR_SCROLLBACK,
        @WireName("behavior.scrollSensitivity")
        BEHAVIOR_SCROLL_SENSITIVITY,
        @WireName("behavior.fastScrollSensitivity")
        BEHAVIOR_FAST_SCROLL_SENSITIVITY,
        @WireName("behavior.smoothScrollDuration")
        BEHAVIOR_SMOOTH_SCROLL_DURATION,
        @WireName("behavior.tabStopWidth")
        BEHAVIOR_TAB_STOP_WIDTH,
        @WireName("behavior.scrollOnUserInput")
        BEHAVIOR_SCROLL_ON_USER_INPUT,
        @WireName("behavior.scrollOnEraseInDisplay")
        BEHAVIOR_SCROLL_ON_ERASE_IN_DISPLAY,
        @WireName("behavior.altClickMovesCursor")
        BEHAVIOR_ALT_CLICK_MOVES_CURSOR,
        @WireName("behavior.rightClickSelectsWord")
        BEHAVIOR_RIGHT_CLICK_SELECTS_WORD,
        @WireName("behavior.macOptionIsMeta")
        BEHAVIOR_MAC_OPTION_IS_META,
        @WireName("behavior.macOptionClickForcesSelection")
        BEHAVIOR_MAC_OPTION_CLICK_FORCES_SELECTION,
        @WireName("behavior.screenReaderMode")
        BEHAVIOR_SCREEN_READER_MODE,
        @WireName("behavior.customGlyphs")
        BEHAVIOR_CUSTOM_GLYPHS,
        @WireName("behavior.rescaleOverlappingGlyphs")
        BEHAVIOR_RESCALE_OVERLAPPING_GLYPHS,
        @WireName("behavior.wordSeparator")
        BEHAVIOR_WORD_SEPARATOR,
        @WireName("windowsShell")
        WINDOWS_SHELL,
        @WireName("agentNotifications")
        AGENT_NOTIFICATIONS,
        @WireName("alwaysShowTitles")
        ALWAYS_SHOW_TITLES,
        @WireName("defaultProfile")
        DEFAULT_PROFILE,
        @WireName("scrollbackBytes")
        SCROLLBACK_BYTES;

        /** Whether this host has the field (ours); the reference's appearance and behaviour belong to its native terminal view. */
        public boolean ours() {
            return this == DEFAULT_PROFILE || this == SCROLLBACK_BYTES;
        }

        /** The field a wire name spells, or INVALID_ARGUMENT naming the fields this host has. */
        static TerminalField named(String wire) {
            for (TerminalField field : values()) {
                if (Encoder.encode(field).stringValue().equals(wire)) {
                    return field;
                }
            }
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "arguments.patch.field: no terminal field " + wire
                            + "; this host has defaultProfile and scrollbackBytes (lomi_settings_read section terminal)");
        }
    }

    /** One setting to change: the reference's {@code SettingsPatch}, plus {@code editor_insert_final_newline} of ours. */
    @Tagged("type")
    public sealed interface Patch {}

    @Tag("editor_tab_size")
    public record EditorTabSize(@Range(min = 1, max = 16) int value) implements Patch {}

    @Tag("editor_insert_spaces")
    public record EditorInsertSpaces(boolean value) implements Patch {}

    @Tag("editor_insert_final_newline")
    public record EditorInsertFinalNewline(boolean value) implements Patch {}

    /**
     * A terminal field by name: the schema publishes the two this host has in its description, not
     * an enum of the reference's 59 (each of the others is accepted and answered
     * UNSUPPORTED_CAPABILITY; a name that is none of them is INVALID_ARGUMENT).
     */
    @Tag("terminal_field")
    public record TerminalFieldPatch(
            @Doc("this host has only defaultProfile (bash|zsh) and scrollbackBytes (65536-4194304)")
            @Matches("[A-Za-z.]{1,64}")
            String field,

            @Doc("null = the default") Optional<JsonNode> value)
            implements Patch {

        public TerminalFieldPatch {
            TerminalField.named(field);
            if (value.isPresent() && !value.get().isValueNode()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "value: must be a boolean, a number, a string or null");
            }
        }

        /** The field named. */
        public TerminalField terminalField() {
            return TerminalField.named(field);
        }
    }

    @Tag("keybinding_set")
    public record KeybindingSet(
            @Len(min = 1, max = 160) String action,

            @Doc("null = none") @Len(min = 1, max = 64) Optional<String> shortcut)
            implements Patch {}

    @Tag("keybinding_reset")
    public record KeybindingReset(@Len(min = 1, max = 160) String action) implements Patch {}

    @Tag("keybinds_focus_follows_pointer")
    public record KeybindsFocusFollowsPointer(boolean value) implements Patch {}

    @Tag("theme_builtin")
    public record ThemeBuiltin(BuiltinTheme value) implements Patch {}

    @Tag("theme_appearance")
    public record ThemeAppearance(Appearance value) implements Patch {}

    public record UpdateInput(
            WorkspaceId workspaceId,
            Patch patch,

            @Doc("from lomi_settings_read") @Len(min = 1, max = 128)
            String expectedSettingsRevision,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    /** The reference's pages of the Settings window, plus editor (ours). */
    public enum Page {
        KEYBINDS,
        THEMES,
        PLUGINS,
        TERMINAL,
        ABOUT,
        @WireName("chat-ai")
        CHAT_AI,
        ANDROID,
        @WireName("agent-control")
        AGENT_CONTROL,
        EDITOR;

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    public record OpenInput(
            WorkspaceId workspaceId,

            Page page,

            @Doc("the domainRevision") Decimal expectedRevision,

            RetryEpochId retryEpoch,

            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public static final ToolSpec<ReadInput> READ = ToolSpec.read(
            "lomi_settings_read",
            "Read settings",
            "settings.read",
            "R-I-",
            ReadInput.class,
            SettingsResults.Snapshot.class,
            "Reads one settings section with its settingsRevision.");

    public static final ToolSpec<UpdateInput> UPDATE = ToolSpec.operation(
            "lomi_settings_update",
            "Change a setting",
            "settings.write",
            "--I-",
            UpdateInput.class,
            SettingsResults.Updated.class,
            "Changes one setting; the admin approves the exact change.");

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
            "lomi_settings_open",
            "Ask to open settings",
            "settings.open",
            "--I-",
            OpenInput.class,
            SettingsResults.Opened.class,
            "Asks the admin to look at a settings page; changes nothing.");

    public static final List<ToolSpec<?>> ALL = List.of(READ, UPDATE, OPEN);
}
