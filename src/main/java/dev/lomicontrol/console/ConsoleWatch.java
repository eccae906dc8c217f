package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code lomi-control console pairing list --watch} and {@code decision list --watch}: prints what
 * waits now, then every request or decision as it arrives and as it goes, until Ctrl-C or until
 * the broker goes away (status 3). Every printed value passes {@link Visible} (client labels are the clients' words). It asks the broker for the command's {@code --json} document
 * four times a second over the admin socket; each line names the command that answers it.
 */
final class ConsoleWatch {

    static final List<String> WATCHABLE = List.of("pairing list", "decision list");
    static final long INTERVAL_MILLIS = 250;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ConsoleWatch() {}

    /** Whether {@code words} ask to watch: a watchable command with {@code --watch}. */
    static boolean wanted(List<String> words) {
        return words.contains("--watch")
                && WATCHABLE.contains(String.join(
                        " ", words.stream().filter(w -> !w.equals("--watch")).toList()));
    }

    static int run(AdminClient client, String command) throws IOException {
        boolean pairing = command.startsWith("pairing");
        Map<String, String> shown = new LinkedHashMap<>();
        ConsoleOutput.line("watching " + command + " (Ctrl-C to stop)");
        while (true) {
            ConsoleResult result = client.run(command + " --json");
            if (result.exitCode() != ConsoleResult.OK) {
                ConsoleOutput.print(result);
                return result.exitCode();
            }
            Map<String, String> now = pairing
                    ? pairingLines(JSON.readTree(result.stdout()))
                    : decisionLines(JSON.readTree(result.stdout()));
            now.forEach((id, line) -> {
                if (!shown.containsKey(id)) {
                    ConsoleOutput.line(Visible.text(line));
                }
            });
            shown.keySet().stream()
                    .filter(id -> !now.containsKey(id))
                    .toList()
                    .forEach(id -> ConsoleOutput.line("gone: " + Visible.text(id)
                            + (pairing ? " (approved, denied, withdrawn or expired)" : " (decided or withdrawn)")));
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
