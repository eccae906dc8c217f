package dev.lomicontrol.settings;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.ledger.Ledger;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.OptimisticLockingFailureException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The settings sections (SPEC §10 Settings). {@code editor} and {@code terminal} live in the store,
 * one row per section, and change only in two steps: {@link #plan} computes the exact before/after
 * against an {@code expectedSettingsRevision} without touching anything (the admin decides on it),
 * then {@link #apply} commits it compare-and-set in one ledger write. {@code agentControl} is a
 * read-only view the caller supplies. Stored sections are {@link SettingSection} aggregates of a
 * Spring Data JDBC repository that writes inside the ledger's single writer. Thread-safe.
 */
public final class Settings {

    private static final Logger log = LoggerFactory.getLogger(Settings.class);

    private final Ledger store;
    private final SettingSections sections;
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
        this.sections = store.jdbc().repository(SettingSections.class);
        this.clock = clock;
        this.agentControl = agentControl;
    }

    /** The current values and revision of {@code section}; INVALID_ARGUMENT for an unknown section. */
    public SettingsView read(String section) {
        if (SettingsSchema.AGENT_CONTROL.equals(section)) {
            return agentView.of(agentControl.get());
        }
        SettingsSchema.requireEditable(section);
        return view(section, sections.findById(section));
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
            Optional<SettingSection> stored = sections.findById(section);
            SettingsView current = view(section, stored);
            requireCurrent(expected, current);
            if (!current.values().equals(plan.before())) {
                throw new LomiException(
                        ErrorCode.REVISION_CONFLICT,
                        "the plan's before does not match " + section + " at " + current.settingsRevision());
            }
            long now = clock.millis();
            SettingSection base = stored.orElseGet(() -> sections.save(SettingSection.defaults(section, now)));
            try {
                SettingSection saved = sections.save(base.changed(SettingsSchema.canonical(after), now));
                return new SettingsView(section, after, revision(section, saved.revision()));
            } catch (OptimisticLockingFailureException e) {
                throw new LomiException(
                        ErrorCode.REVISION_CONFLICT, section + " settings changed meanwhile; read them again", e);
            }
        });
        notifyListeners(section);
        return applied;
    }

    /** The {@code editor} section as typed values. */
    public EditorSettings editor() {
        JsonNode values = read(SettingsSchema.EDITOR).values();
        return new EditorSettings(
                values.get("tabSize").intValue(),
                values.get("insertSpaces").booleanValue(),
                values.get("insertFinalNewline").booleanValue());
    }

    /** The {@code terminal} section as typed values. */
    public TerminalSettings terminal() {
        JsonNode values = read(SettingsSchema.TERMINAL).values();
        return new TerminalSettings(
                values.get("defaultProfile").stringValue(),
                values.get("scrollbackBytes").intValue());
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
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    current.section() + " settings changed: now at " + current.settingsRevision());
        }
    }

    /** n of {@code "<section>:<n>"}; INVALID_ARGUMENT when malformed or for another section. */
    static long revisionNumber(String section, String settingsRevision) {
        String prefix = section + ":";
        if (settingsRevision == null || !settingsRevision.startsWith(prefix)) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "expectedSettingsRevision must look like '" + prefix + "<n>'");
        }
        String digits = settingsRevision.substring(prefix.length());
        if (digits.isEmpty()
                || digits.length() > 15
                || !digits.chars().allMatch(ch -> ch >= '0' && ch <= '9')
                || digits.startsWith("0")) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "expectedSettingsRevision must look like '" + prefix + "<n>'");
        }
        return Long.parseLong(digits);
    }

    private static String revision(String section, long n) {
        return section + ":" + n;
    }

    /** The view of a stored row, or of the shipped defaults at revision 1 when there is none. */
    private static SettingsView view(String section, Optional<SettingSection> stored) {
        if (stored.isEmpty()) {
            return new SettingsView(section, SettingsSchema.defaults(section), revision(section, 1));
        }
        return new SettingsView(
                section,
                SettingsSchema.fromStored(section, stored.get().value()),
                revision(section, stored.get().revision()));
    }

    /** Numbers the supplied agentControl objects: the revision moves when the content does. */
    private static final class AgentControlView {
        private @Nullable String lastCanonical;
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
            return new SettingsView(
                    SettingsSchema.AGENT_CONTROL, supplied, revision(SettingsSchema.AGENT_CONTROL, revision));
        }
    }
}
