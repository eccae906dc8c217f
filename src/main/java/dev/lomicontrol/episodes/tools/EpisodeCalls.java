package dev.lomicontrol.episodes.tools;

import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.episodes.AttachResult;
import dev.lomicontrol.episodes.CloseReason;
import dev.lomicontrol.episodes.DetachResult;
import dev.lomicontrol.episodes.Episode;
import dev.lomicontrol.episodes.EpisodeBoard;
import dev.lomicontrol.episodes.EpisodeState;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.episodes.ExternalId;
import dev.lomicontrol.episodes.api.EpisodeSpecs;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.ToolHandlers;
import dev.lomicontrol.pairing.Session;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * {@code lomi_session_attach}, {@code lomi_session_detach} and {@code lomi_episodes} over
 * {@link Episodes}. The board shows every live episode, but the holding session's id only of the
 * caller's own; for the others only whether one holds it.
 */
@Component
public final class EpisodeCalls implements ToolFeature {

    private final Episodes episodes;
    private final Clock clock;

    public EpisodeCalls(Episodes episodes, Clock clock) {
        this.episodes = episodes;
        this.clock = clock;
    }

    public EpisodeSpecs.Attached attach(Session session, EpisodeSpecs.Attach input) {
        AttachResult result = episodes.attach(session.id(), new ExternalId(input.externalId()));
        if (result instanceof AttachResult.Refused refused) {
            throw new LomiException(refused.code(), refused.message());
        }
        AttachResult.Attached attached = (AttachResult.Attached) result;
        return new EpisodeSpecs.Attached(
                describe(attached.episode()),
                attached.resumed(),
                episodes.reattachGrace().toSeconds(),
                attached.released().map(EpisodeCalls::describe));
    }

    public EpisodeSpecs.Detached detach(Session session, EpisodeSpecs.Detach input) {
        DetachResult result = episodes.detach(session.id(), input.externalId().map(ExternalId::new));
        if (result instanceof DetachResult.Refused refused) {
            throw new LomiException(refused.code(), refused.message());
        }
        return new EpisodeSpecs.Detached(describe(((DetachResult.Closed) result).episode()));
    }

    public EpisodeSpecs.Board list(Session session, EpisodeSpecs.NoArguments input) {
        EpisodeBoard board = episodes.board(session.id());
        return new EpisodeSpecs.Board(
                board.count(EpisodeState.ATTACHED),
                board.count(EpisodeState.DETACHED),
                episodes.reattachGrace().toSeconds(),
                board.live().stream().map(episode -> listed(episode, session)).toList(),
                board.recentlyClosed().stream().map(EpisodeCalls::describe).toList(),
                board.mine().map(mine -> listed(mine, session)));
    }

    private EpisodeSpecs.Listed listed(Episode episode, Session caller) {
        boolean mine = episode.heldBy(caller.id());
        return new EpisodeSpecs.Listed(
                describe(episode),
                episode.holder().isPresent(),
                mine,
                mine ? Optional.of(caller.id().value()) : Optional.empty(),
                Math.max(
                        0,
                        Duration.between(episode.lastActivity(), clock.instant())
                                .toSeconds()));
    }

    /** The fields every episode answer shares; closed ones add the reason and whether the work was interrupted. */
    private static EpisodeSpecs.Episode describe(Episode episode) {
        return new EpisodeSpecs.Episode(
                episode.id().value(),
                episode.externalId().value(),
                EpisodeSpecs.State.valueOf(episode.state().name()),
                episode.attachments(),
                episode.openedAt().toString(),
                episode.lastActivity().toString(),
                episode.detachedSince().map(Instant::toString),
                episode.closedAt().map(Instant::toString),
                episode.closeReason().map(CloseReason::wire),
                episode.closeReason().map(CloseReason::ending));
    }

    /** Registers the handlers of the tools this class serves. */
    @Override
    public void register(Wiring wiring) {
        ToolHandlers handlers = wiring.handlers();
        handlers.on(EpisodeSpecs.ATTACH, this::attach);
        handlers.on(EpisodeSpecs.DETACH, this::detach);
        handlers.on(EpisodeSpecs.LIST, this::list);
    }
}
