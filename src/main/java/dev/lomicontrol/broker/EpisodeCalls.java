package dev.lomicontrol.broker;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.episodes.AttachResult;
import dev.lomicontrol.episodes.DetachResult;
import dev.lomicontrol.episodes.Episode;
import dev.lomicontrol.episodes.EpisodeBoard;
import dev.lomicontrol.episodes.EpisodeState;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.episodes.ExternalId;
import dev.lomicontrol.pairing.Session;
import java.time.Clock;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_session_attach}, {@code lomi_session_detach} and {@code lomi_episodes} over
 * {@link Episodes}. The board shows every live episode, but the holding session's id only of the
 * caller's own; for the others only whether one holds it.
 */
final class EpisodeCalls {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Episodes episodes;
    private final Clock clock;

    EpisodeCalls(Episodes episodes, Clock clock) {
        this.episodes = episodes;
        this.clock = clock;
    }

    ObjectNode attach(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "externalId");
        AttachResult result = episodes.attach(session.id(), new ExternalId(args.requiredString("externalId")));
        if (result instanceof AttachResult.Refused) {
            AttachResult.Refused refused = (AttachResult.Refused) result;
            throw new LomiException(refused.code(), refused.message());
        }
        AttachResult.Attached attached = (AttachResult.Attached) result;
        ObjectNode data = JSON.objectNode();
        data.put("kind", "episode");
        describe(data, attached.episode());
        data.put("resumed", attached.resumed());
        data.put("reattachGraceSeconds", episodes.reattachGrace().toSeconds());
        attached.released().ifPresent(released -> describe(data.putObject("released"), released));
        return data;
    }

    ObjectNode detach(Session session, JsonNode arguments) {
        Arguments args = Arguments.of(arguments, "externalId");
        DetachResult result = episodes.detach(session.id(), args.optionalString("externalId").map(ExternalId::new));
        if (result instanceof DetachResult.Refused) {
            DetachResult.Refused refused = (DetachResult.Refused) result;
            throw new LomiException(refused.code(), refused.message());
        }
        ObjectNode data = JSON.objectNode();
        data.put("kind", "episode");
        describe(data, ((DetachResult.Closed) result).episode());
        return data;
    }

    ObjectNode list(Session session, JsonNode arguments) {
        Arguments.of(arguments);
        EpisodeBoard board = episodes.board(session.id());
        ObjectNode data = JSON.objectNode();
        data.put("kind", "episodes");
        data.put("attached", board.count(EpisodeState.ATTACHED));
        data.put("detached", board.count(EpisodeState.DETACHED));
        data.put("reattachGraceSeconds", episodes.reattachGrace().toSeconds());
        ArrayNode live = data.putArray("episodes");
        board.live().forEach(episode -> listed(live.addObject(), episode, session));
        ArrayNode closed = data.putArray("recentlyClosed");
        board.recentlyClosed().forEach(episode -> describe(closed.addObject(), episode));
        board.mine().ifPresent(mine -> listed(data.putObject("mine"), mine, session));
        return data;
    }

    private void listed(ObjectNode item, Episode episode, Session caller) {
        describe(item, episode);
        boolean mine = episode.heldBy(caller.id());
        item.put("held", episode.holder().isPresent());
        item.put("mine", mine);
        if (mine) {
            item.put("holdingSession", caller.id().value());
        }
        item.put("lastActivitySecondsAgo", Math.max(0, Duration.between(episode.lastActivity(), clock.instant()).toSeconds()));
    }

    /** The fields every episode answer shares; closed ones add the reason and whether the work was interrupted. */
    private static void describe(ObjectNode item, Episode episode) {
        item.put("episodeId", episode.id().value());
        item.put("externalId", episode.externalId().value());
        item.put("state", episode.state().wire());
        item.put("attachments", episode.attachments());
        item.put("openedAt", episode.openedAt().toString());
        item.put("lastActivity", episode.lastActivity().toString());
        episode.detachedSince().ifPresent(t -> item.put("detachedSince", t.toString()));
        episode.closedAt().ifPresent(t -> item.put("closedAt", t.toString()));
        episode.closeReason().ifPresent(reason -> {
            item.put("closeReason", reason.wire());
            item.put("ending", reason.ending());
        });
    }

    /** Registers the handlers of the tools this class serves. */
    void register(ToolHandlers handlers) {
    }

    /** The tools of this class not yet bound through their declarations. */
    void registerLegacy(java.util.Map<String, BrokerCalls.LegacyCall> legacy) {
        legacy.put("lomi_session_attach", this::attach);
        legacy.put("lomi_session_detach", this::detach);
        legacy.put("lomi_episodes", this::list);
    }
}
