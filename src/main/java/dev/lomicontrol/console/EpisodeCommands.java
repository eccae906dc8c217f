package dev.lomicontrol.console;

import dev.lomicontrol.core.Visible;
import dev.lomicontrol.episodes.CloseReason;
import dev.lomicontrol.episodes.Episode;
import dev.lomicontrol.episodes.EpisodeBoard;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.springframework.shell.core.command.annotation.Command;
import org.springframework.shell.core.command.annotation.Option;
import org.springframework.stereotype.Component;

/**
 * {@code episodes list}: the broker's execution episodes (SPEC §8) — the live ones (attached or
 * detached, by externalId) and the most recently closed ones (newest first), as lomi_episodes shows
 * them to agents. The externalId and client labels are the clients' words: printed through
 * {@link Visible}.
 */
@Component
class EpisodeCommands implements CommandGroup {

    private final Episodes episodes;
    private final Sessions sessions;

    EpisodeCommands(Episodes episodes, Sessions sessions) {
        this.episodes = episodes;
        this.sessions = sessions;
    }

    @Command(
            name = "episodes list",
            group = "Episodes",
            description = "List the agents' execution episodes, live and recently closed",
            help =
                    "episodes list [--json] [--watch]\n  Each episode: id, externalId (the client's own thread id), state (attached,"
                            + " detached or closed), the session and client holding it, opened, last activity, attachments, and"
                            + " since when it is detached or when and why it closed (closed, expired = interrupted, shutdown)."
                            + " --json: one JSON document; --watch (from a shell): each episode as it appears or changes, and"
                            + " gone: as it leaves the list.")
    public String list(
            @Option(
                            longName = "json",
                            description = "print one JSON document (docs/OPERATIONS.md \"Scripting\")",
                            defaultValue = "false")
                    boolean json) {
        EpisodeBoard board = episodes.board();
        List<Session> connected = sessions.list();
        List<ConsoleJson.EpisodeRow> all = Stream.concat(board.live().stream(), board.recentlyClosed().stream())
                .map(e -> row(e, connected))
                .toList();
        if (json) {
            return ConsoleJson.write(new ConsoleJson.EpisodeList(all));
        }
        if (all.isEmpty()) {
            return "no episodes: a client opens one with lomi_session_attach (its own thread id as externalId)";
        }
        return table(all);
    }

    private static String table(List<ConsoleJson.EpisodeRow> all) {
        Table table = new Table(
                "EPISODE", "EXTERNAL ID", "STATE", "HELD BY", "OPENED", "LAST ACTIVITY", "ATTACHMENTS", "SINCE");
        all.forEach(e -> table.row(
                e.episodeId(),
                Visible.line(e.externalId()),
                e.state(),
                heldBy(e),
                time(e.openedAt()),
                time(e.lastActivity()),
                e.attachments(),
                since(e)));
        return table.toString();
    }

    /** The holding session with its client label, or - when detached or closed. */
    private static String heldBy(ConsoleJson.EpisodeRow episode) {
        if (episode.session().isEmpty()) {
            return "-";
        }
        return episode.session().get()
                + episode.client().map(c -> " (" + Visible.line(c) + ")").orElse("");
    }

    /** When and why it closed, or since when it is detached; - while attached. */
    private static String since(ConsoleJson.EpisodeRow episode) {
        if (episode.closedAt().isPresent()) {
            return "closed " + time(episode.closedAt().get()) + " "
                    + episode.closeReason().orElse("");
        }
        return episode.detachedSince().map(at -> "detached " + time(at)).orElse("-");
    }

    private static String time(String instant) {
        return Text.time(java.time.Instant.parse(instant));
    }

    private static ConsoleJson.EpisodeRow row(Episode episode, List<Session> connected) {
        Optional<String> holder = episode.holder().map(dev.lomicontrol.core.SessionId::value);
        return new ConsoleJson.EpisodeRow(
                episode.id().value(),
                episode.externalId().value(),
                episode.state().wire(),
                holder,
                holder.flatMap(id -> connected.stream()
                        .filter(s -> s.id().value().equals(id))
                        .map(Session::clientLabel)
                        .findFirst()),
                episode.openedAt().toString(),
                episode.lastActivity().toString(),
                episode.attachments(),
                episode.detachedSince().map(Object::toString),
                episode.closedAt().map(Object::toString),
                episode.closeReason().map(CloseReason::wire));
    }
}
