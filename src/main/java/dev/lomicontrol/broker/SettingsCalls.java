package dev.lomicontrol.broker;

import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.settings.SettingsPlan;
import dev.lomicontrol.settings.SettingsView;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Settings tools (SPEC §10 "Settings"): read a section with its {@code settingsRevision}; update is a
 * compare-and-set whose exact before/after plan the admin approves; open records a request for the
 * admin's attention. The {@code agentControl} section is a read-only view.
 */
final class SettingsCalls {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Settings settings;
    private final WorkspaceCalls workspaces;
    private final OperationRunner runner;
    private final Layout layout;
    private final Clock clock;
    private final DecisionBoard board;
    private final SecureRandom random = new SecureRandom();

    SettingsCalls(Settings settings, WorkspaceCalls workspaces, OperationRunner runner, Layout layout, Clock clock, DecisionBoard board) {
        this.board = board;
        this.settings = settings;
        this.workspaces = workspaces;
        this.runner = runner;
        this.layout = layout;
        this.clock = clock;
    }

    ObjectNode read(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "workspaceId", "section");
        workspaces.resolve(session, new dev.lomicontrol.core.WorkspaceId(args.requiredString("workspaceId")));
        String section = args.choice("section", Optional.empty(), "editor", "terminal", "agentControl");
        return view(settings.read(section));
    }

    ObjectNode update(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "section", "patch", "expectedSettingsRevision", "expectedRevision"));
        WorkspaceCalls.Listed listed = workspaces.resolve(session, new dev.lomicontrol.core.WorkspaceId(args.requiredString("workspaceId")));
        String section = args.choice("section", Optional.empty(), "editor", "terminal");
        JsonNode patch = args.raw("patch");
        if (patch == null || !patch.isObject() || patch.isEmpty()) {
            throw Arguments.invalid("patch is an object with at least one field of the section");
        }
        String expectedSettings = args.requiredString("expectedSettingsRevision");
        long expected = Revisions.expected(args);
        SettingsPlan plan;
        LomiException refusal;
        try {
            plan = settings.plan(section, patch, expectedSettings);
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
        return runner.afterApproval(LayoutCalls.request(session, "lomi_settings_update", arguments, args, listed, section, expected), () -> {
            Revisions.require(expected, layout.revision());
            if (refused != null) {
                throw refused;
            }
        }, summary, shown, operation -> {
            SettingsView after = settings.apply(planned);
            ObjectNode result = view(after);
            result.put("kind", "settings_updated");
            return result;
        });
    }

    ObjectNode open(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, LayoutCalls.with("workspaceId", "page", "expectedRevision"));
        WorkspaceCalls.Listed listed = workspaces.resolve(session, new dev.lomicontrol.core.WorkspaceId(args.requiredString("workspaceId")));
        String page = args.choice("page", Optional.empty(), "editor", "terminal", "agent-control");
        long expected = Revisions.expected(args);
        return runner.immediate(LayoutCalls.request(session, "lomi_settings_open", arguments, args, listed, page, expected),
                () -> Revisions.require(expected, layout.revision()), operation -> {
                    String id = "req-" + Ids.randomHex(random, 8);
                    board.notice(clock.instant() + "  " + id + "  " + session.clientLabel() + " asks you to look at the " + page + " settings");
                    ObjectNode result = JSON.objectNode();
                    result.put("kind", "settings_opened");
                    result.put("page", page);
                    result.put("requestId", id);
                    return result;
                });
    }

    private static ObjectNode view(SettingsView view) {
        ObjectNode data = JSON.objectNode();
        data.put("kind", "settings");
        data.put("section", view.section());
        data.set("values", view.values());
        data.put("settingsRevision", view.settingsRevision());
        data.put("readOnly", view.section().equals("agentControl"));
        return data;
    }

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_settings_read", this::read);
        legacy.put("lomi_settings_update", this::update);
        legacy.put("lomi_settings_open", this::open);
    }
}
