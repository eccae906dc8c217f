package dev.lomicontrol.settings;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.Ledger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The settings sections (SPEC §10 Settings). {@code editor} and {@code terminal} live in the store,
 * one row per section, and change only in two steps: {@link #plan} computes the exact before/after
 * against an {@code expectedSettingsRevision} without touching anything (the admin decides on it),
 * then {@link #apply} commits it compare-and-set in one ledger write. {@code agentControl} is a
 * read-only view the caller supplies. Thread-safe.
 */
public final class Settings {

    private static final Logger log = LoggerFactory.getLogger(Settings.class);

    private final Ledger store;
    private final Clock clock;
    private final Supplier<? extends JsonNode> agentControl;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private final AgentControlView agentView = new AgentControlView();

    /** Settings with an empty {@code agentControl} view. */
    public Settings(Ledger store, Clock clock) {
        this(store, clock, JsonNodeFactory.instance::objectNode);
    }

    /** Settings whose read-only {@code agentControl} section is whatever JSON object {@code agentControl} supplies at read time. */
    public Settings(Ledger store, Clock clock, Supplier<? extends JsonNode> agentControl) {
        this.store = store;
        this.clock = clock;
        this.agentControl = agentControl;
    }

    /** The current values and revision of {@code section}; INVALID_ARGUMENT for an unknown section. */
    public SettingsView read(String section) {
        if (SettingsSchema.AGENT_CONTROL.equals(section)) {
            return agentView.of(agentControl.get());
        }
        SettingsSchema.requireEditable(section);
        return store.read(c -> load(c, section));
    }

    /**
     * Validates a patch {field: value} for {@code editor}/{@code terminal} (unknown field, bad value or
     * a patch that changes nothing → INVALID_ARGUMENT; {@code agentControl} → SCOPE_DENIED) and checks
     * {@code expectedSettingsRevision} (stale → REVISION_CONFLICT). Returns the exact plan; applies nothing.
     */
    public SettingsPlan plan(String section, JsonNode patch, String expectedSettingsRevision) {
        SettingsSchema.requireEditable(section);
        long expected = revisionNumber(section, expectedSettingsRevision);
        SettingsView current = read(section);
        ObjectNode after = SettingsSchema.patched(section, (ObjectNode) current.values(), patch);
        requireCurrent(expected, current);
        if (after.equals(current.values())) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "the patch changes nothing in " + section);
        }
        return new SettingsPlan(section, current.settingsRevision(), current.values(), after);
    }

    /**
     * Commits {@code plan} compare-and-set inside one ledger write: when the section moved past the
     * plan's revision meanwhile, REVISION_CONFLICT and nothing changes. Listeners hear of the change
     * after the commit. Returns the new view ({@code "<section>:<n+1>"}).
     */
    public SettingsView apply(SettingsPlan plan) {
        String section = plan.section();
        SettingsSchema.requireEditable(section);
        long expected = revisionNumber(section, plan.expectedSettingsRevision());
        JsonNode after = plan.after();
        SettingsSchema.requireComplete(section, after);
        SettingsView applied = store.write(c -> {
            SettingsView current = load(c, section);
            requireCurrent(expected, current);
            if (!current.values().equals(plan.before())) {
                throw new LomiException(ErrorCode.REVISION_CONFLICT, "the plan's before does not match " + section + " at " + current.settingsRevision());
            }
            long next = expected + 1;
            save(c, section, SettingsSchema.canonical(after), next);
            return new SettingsView(section, after, revision(section, next));
        });
        notifyListeners(section);
        return applied;
    }

    /** The {@code editor} section as typed values. */
    public EditorSettings editor() {
        JsonNode values = read(SettingsSchema.EDITOR).values();
        return new EditorSettings(values.get("tabSize").intValue(), values.get("insertSpaces").booleanValue(),
                values.get("insertFinalNewline").booleanValue());
    }

    /** The {@code terminal} section as typed values. */
    public TerminalSettings terminal() {
        JsonNode values = read(SettingsSchema.TERMINAL).values();
        return new TerminalSettings(values.get("defaultProfile").stringValue(), values.get("scrollbackBytes").intValue());
    }

    /** Registers a listener called with the section name after each applied change (a throwing listener is logged and skipped). */
    public void onChange(Consumer<String> sectionListener) {
        listeners.add(sectionListener);
    }

    private void notifyListeners(String section) {
        for (Consumer<String> listener : listeners) {
            try {
                listener.accept(section);
            } catch (RuntimeException e) {
                log.warn("a settings listener failed for section {}", section, e);
            }
        }
    }

    private static void requireCurrent(long expected, SettingsView current) {
        if (revisionNumber(current.section(), current.settingsRevision()) != expected) {
            throw new LomiException(ErrorCode.REVISION_CONFLICT, current.section() + " settings changed: now at " + current.settingsRevision());
        }
    }

    /** n of {@code "<section>:<n>"}; INVALID_ARGUMENT when malformed or for another section. */
    static long revisionNumber(String section, String settingsRevision) {
        String prefix = section + ":";
        if (settingsRevision == null || !settingsRevision.startsWith(prefix)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "expectedSettingsRevision must look like '" + prefix + "<n>'");
        }
        String digits = settingsRevision.substring(prefix.length());
        if (digits.isEmpty() || digits.length() > 15 || !digits.chars().allMatch(ch -> ch >= '0' && ch <= '9') || digits.startsWith("0")) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "expectedSettingsRevision must look like '" + prefix + "<n>'");
        }
        return Long.parseLong(digits);
    }

    private static String revision(String section, long n) {
        return section + ":" + n;
    }

    private static SettingsView load(Connection c, String section) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT value, revision FROM setting_section WHERE section = ?")) {
            s.setString(1, section);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return new SettingsView(section, SettingsSchema.defaults(section), revision(section, 1));
                }
                return new SettingsView(section, SettingsSchema.fromStored(section, rs.getString(1)), revision(section, rs.getLong(2)));
            }
        }
    }

    private void save(Connection c, String section, String canonicalValues, long revision) throws SQLException {
        String sql = "INSERT INTO setting_section (section, value, revision, updated_at) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (section) DO UPDATE SET value = excluded.value, revision = excluded.revision, updated_at = excluded.updated_at";
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, section);
            s.setString(2, canonicalValues);
            s.setLong(3, revision);
            s.setLong(4, clock.millis());
            s.executeUpdate();
        }
    }

    /** Numbers the supplied agentControl objects: the revision moves when the content does. */
    private static final class AgentControlView {
        private String lastCanonical;
        private long revision;

        synchronized SettingsView of(JsonNode supplied) {
            if (supplied == null || !supplied.isObject()) {
                throw new IllegalStateException("the agentControl view must be a JSON object");
            }
            String canonical = SettingsSchema.canonical(supplied);
            if (!canonical.equals(lastCanonical)) {
                lastCanonical = canonical;
                revision++;
            }
            return new SettingsView(SettingsSchema.AGENT_CONTROL, supplied, revision(SettingsSchema.AGENT_CONTROL, revision));
        }
    }
}
