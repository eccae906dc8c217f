package dev.lomicontrol.settings;

/** The {@code terminal} section as typed values: the shell profile for new terminals and their scrollback size. */
public record TerminalSettings(String defaultProfile, int scrollbackBytes) {

    /** The shipped defaults: bash, 512 KiB. */
    public static final TerminalSettings DEFAULTS = new TerminalSettings("bash", 524_288);

    public TerminalSettings {
        if (!"bash".equals(defaultProfile) && !"zsh".equals(defaultProfile)) {
            throw new IllegalArgumentException("defaultProfile must be bash or zsh, was " + defaultProfile);
        }
        if (scrollbackBytes < 65_536 || scrollbackBytes > 4_194_304) {
            throw new IllegalArgumentException("scrollbackBytes must be 65536..4194304, was " + scrollbackBytes);
        }
    }
}
