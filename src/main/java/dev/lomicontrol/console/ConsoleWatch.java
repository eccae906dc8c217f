package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code lomi-control console COMMAND --watch} for the lists in {@link #WATCHABLE} ({@code pairing
 * list}, {@code decision list}, {@code workspace list}, {@code panel list [--workspace W]},
 * {@code episodes list}): prints what the list holds now, then every row as it arrives and a
 * {@code gone:} line as it goes (rows are keyed by their id), until Ctrl-C or until the broker goes
 * away (status 3). The layout and episode lists also print a row again when it changes (a panel's
 * state, its command, who holds its input). Every printed value passes {@link Visible} (client labels,
 * titles and commands are the agents' words). It asks the broker for the command's {@code --json}
 * document four times a second over the admin socket; each line names the command that answers it.
 */
final class ConsoleWatch {

    /** One watchable list: how its {@code --json} document becomes one line per row, keyed by id. */
    record Watchable(
            String command, Function<JsonNode, Map<String, String>> lines, String goneWhy, boolean showsChanges) {}

    static final List<Watchable> WATCHABLE = List.of(
            new Watchable(
                    "pairing list", ConsoleWatch::pairingLines, " (approved, denied, withdrawn or expired)", false),
            new Watchable("decision list", ConsoleWatch::decisionLines, " (decided or withdrawn)", false),
            new Watchable("workspace list", WatchLines::workspaces, " (its project was closed or removed)", true),
            new Watchable("panel list", WatchLines::panels, " (closed)", true),
            new Watchable("episodes list", WatchLines::episodes, " (no longer among the recent episodes)", true));
    static final long INTERVAL_MILLIS = 250;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ConsoleWatch() {}

    /** Whether {@code words} ask to watch: a watchable command (with its options, but not --json) and {@code --watch}. */
    static boolean wanted(List<String> words) {
        return watchable(words).isPresent();
    }

    /** The watchable list {@code words} name with {@code --watch}. */
    static Optional<Watchable> watchable(List<String> words) {
        if (!words.contains("--watch") || words.contains("--json")) {
            return Optional.empty();
        }
        List<String> rest = words.stream().filter(w -> !w.equals("--watch")).toList();
        return WATCHABLE.stream()
                .filter(w -> {
                    List<String> name = List.of(w.command().split(" "));
                    return rest.size() >= name.size()
                            && rest.subList(0, name.size()).equals(name)
                            && (rest.size() == name.size()
                                    || rest.get(name.size()).startsWith("--"));
                })
                .findFirst();
    }

    static int run(AdminClient client, String command) throws IOException {
        Watchable watched = WATCHABLE.stream()
                .filter(w -> command.equals(w.command()) || command.startsWith(w.command() + " "))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(command + " cannot be watched"));
        Map<String, String> shown = new LinkedHashMap<>();
        ConsoleOutput.line("watching " + command + " (Ctrl-C to stop)");
        while (true) {
            ConsoleResult result = client.run(command + " --json");
            if (result.exitCode() != ConsoleResult.OK) {
                ConsoleOutput.print(result);
                return result.exitCode();
            }
            Map<String, String> now = watched.lines().apply(JSON.readTree(result.stdout()));
            now.forEach((id, line) -> {
                String before = shown.get(id);
                if (before == null || (watched.showsChanges() && !before.equals(line))) {
                    ConsoleOutput.line(Visible.text(line));
                }
            });
            shown.keySet().stream()
                    .filter(id -> !now.containsKey(id))
                    .toList()
                    .forEach(id -> ConsoleOutput.line("gone: " + Visible.text(id) + watched.goneWhy()));
            shown.clear();
            shown.putAll(now);
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ConsoleResult.OK;
            }
        }
    }

    private static Map<String, String> pairingLines(JsonNode document) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (JsonNode request : document.path("requests")) {
            String id = request.path("id").asString();
            lines.put(
                    id,
                    "pairing request " + id + " from '" + request.path("client").asString() + "' pid "
                            + request.path("pid").asLong()
                            + " certificate "
                            + request.path("certificateSha256").asString() + " expires "
                            + request.path("expiresAt").asString()
                            + "\n  approve: pairing approve " + id + "   deny: pairing deny " + id);
        }
        return lines;
    }

    private static Map<String, String> decisionLines(JsonNode document) {
        Map<String, String> lines = new LinkedHashMap<>();
        for (JsonNode decision : document.path("decisions")) {
            String id = decision.path("operationId").asString();
            lines.put(
                    id,
                    "decision " + id + " " + decision.path("tool").asString() + ": "
                            + Visible.line(decision.path("summary").asString()) + "\n  plan: " + decision.path("plan")
                            + "\n  approve: decision approve " + id + "   reject: decision reject " + id);
        }
        return lines;
    }
}
