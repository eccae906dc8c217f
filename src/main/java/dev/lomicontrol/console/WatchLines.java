package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The lines {@link ConsoleWatch} prints for the layout and episode lists: one line per row of the
 * command's {@code --json} document, keyed by the row's id. A line holds what an admin watches
 * change (a panel's state, input holder, command and exit code), not what changes on every call (an
 * episode's last activity, a layout revision). Every agent-chosen value is shown as one line
 * ({@link Visible#line}).
 */
final class WatchLines {

    private WatchLines() {}

    static Map<String, String> workspaces(JsonNode document) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (JsonNode w : document.path("workspaces")) {
            String id = w.path("workspaceId").asString();
            lines.put(
                    id,
                    "workspace " + id + " '" + text(w, "name") + "' of project "
                            + w.path("projectId").asString()
                            + " '" + text(w, "projectName") + "': "
                            + w.path("tabs").asInt() + " tabs, "
                            + w.path("panels").asInt() + " panels, active " + orDash(w, "activePanelId"));
        }
        return lines;
    }

    static Map<String, String> panels(JsonNode document) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (JsonNode p : document.path("panels")) {
            String id = p.path("panelId").asString();
            StringBuilder line = new StringBuilder("panel ")
                    .append(id)
                    .append(" in ")
                    .append(p.path("workspaceId").asString())
                    .append(": ")
                    .append(p.path("kind").asString())
                    .append(" '")
                    .append(text(p, "title"))
                    .append("' owner ")
                    .append(orDash(p, "ownerSession"));
            if (!p.path("ownerClient").isNull()) {
                line.append(" (").append(text(p, "ownerClient")).append(')');
            }
            line.append(", ").append(p.path("state").asString());
            if (!p.path("terminalSessionId").isNull()) {
                line.append(", input ").append(orDash(p, "inputHolder"));
            }
            if (!p.path("command").isNull()) {
                line.append(", command '").append(text(p, "command")).append('\'');
                if (!p.path("exitCode").isNull()) {
                    line.append(" exit ").append(p.path("exitCode").asInt());
                }
            }
            lines.put(id, line.toString());
        }
        return lines;
    }

    static Map<String, String> episodes(JsonNode document) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (JsonNode e : document.path("episodes")) {
            String id = e.path("episodeId").asString();
            StringBuilder line = new StringBuilder("episode ")
                    .append(id)
                    .append(" '")
                    .append(text(e, "externalId"))
                    .append("' ")
                    .append(e.path("state").asString());
            if (!e.path("session").isNull()) {
                line.append(" by session ").append(orDash(e, "session"));
                if (!e.path("client").isNull()) {
                    line.append(" (").append(text(e, "client")).append(')');
                }
            }
            line.append(", opened ")
                    .append(e.path("openedAt").asString())
                    .append(", attachments ")
                    .append(e.path("attachments").asInt());
            if (!e.path("detachedSince").isNull()) {
                line.append(", detached since ").append(e.path("detachedSince").asString());
            }
            if (!e.path("closedAt").isNull()) {
                line.append(", closed ")
                        .append(e.path("closedAt").asString())
                        .append(' ')
                        .append(orDash(e, "closeReason"));
            }
            lines.put(id, line.toString());
        }
        return lines;
    }

    private static String text(JsonNode row, String field) {
        return Visible.line(row.path(field).asString());
    }

    private static String orDash(JsonNode row, String field) {
        return row.path(field).isNull() ? "-" : Visible.line(row.path(field).asString());
    }
}
