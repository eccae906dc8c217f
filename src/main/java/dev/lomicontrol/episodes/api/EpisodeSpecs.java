package dev.lomicontrol.episodes.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Inline;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.ToolSpec;
import java.util.List;
import java.util.Optional;

/**
 * The episode tools (SPEC §8, seed 003; ours, not the reference's): attach/resume, deliberate
 * detach, and the board of live and recently closed episodes.
 */
public final class EpisodeSpecs {

    private EpisodeSpecs() {}

    /** Not blank, one line, no control characters (the constructor checks the rest: Unicode blanks, lone surrogates). */
    static final String EXTERNAL_ID = Matches.NOT_ONLY_SPACES + "[^" + Matches.CONTROLS + "\\u2028\\u2029]+";

    /** One line, 1-256 code points, not blank, no control characters (C0, DEL, C1), no line/paragraph separators, no lone surrogates. */
    static void requireExternalId(String value) {
        if (value.isBlank()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "externalId must not be blank");
        }
        boolean allowed = value.codePoints()
                .allMatch(c -> !Character.isISOControl(c)
                        && c != '\u2028'
                        && c != '\u2029'
                        && (c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE));
        if (!allowed) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT, "externalId must be one line without control characters");
        }
    }

    public record Attach(
            @Doc("your durable conversation/thread id") @Len(min = 1, max = 256) @Matches(EXTERNAL_ID)
            String externalId) {

        public Attach {
            requireExternalId(externalId);
        }
    }

    public record Detach(
            @Doc("null = your own") @Len(min = 1, max = 256) @Matches(EXTERNAL_ID)
            Optional<String> externalId) {

        public Detach {
            externalId.ifPresent(EpisodeSpecs::requireExternalId);
        }
    }

    public record NoArguments() {}

    public enum State {
        ATTACHED,
        DETACHED,
        CLOSED
    }

    /**
     * The fields every episode answer shares. {@code closeReason} and {@code ending} are strings, not
     * enums: the framework publishes an optional enum as {@code type:[string,null]} with an enum
     * lacking null, so a null value would not validate against its own schema.
     */
    public record Episode(
            @Doc("the broker's id of the episode") String episodeId,

            @Doc("the client's own durable conversation/thread id")
            String externalId,

            @Doc("attached (a live connection holds it), detached (its connection ended; resumable) or closed")
            State state,

            @Doc("how many connections have carried it") int attachments,
            @Doc("when it was opened (ISO-8601)") String openedAt,

            @Doc("the last traffic on the holding connection (ISO-8601)")
            String lastActivity,

            @Doc("since when it is detached; null unless detached")
            Optional<String> detachedSince,

            @Doc("when it was closed; null unless closed") Optional<String> closedAt,

            @Doc("closed (deliberately), expired (detached past the grace) or shutdown; null unless closed")
            Optional<String> closeReason,

            @Doc("closed = the work was declared over; interrupted = it expired; null unless closed")
            Optional<String> ending) {}

    /** An entry of the live list: the shared fields plus who holds it. */
    public record Listed(
            @Inline Episode episode,
            @Doc("whether a live connection holds it") boolean held,
            @Doc("whether the calling connection holds it") boolean mine,

            @Doc("the calling session, when it holds the episode; null otherwise")
            Optional<String> holdingSession,

            @Doc("seconds since the last traffic") long lastActivitySecondsAgo) {}

    @Tag("episode")
    public record Attached(
            @Inline Episode episode,

            @Doc("whether an existing episode with this externalId was resumed")
            boolean resumed,

            @Doc("how long a detached episode stays resumable")
            long reattachGraceSeconds,

            @Doc("the episode this connection held before, now detached; null when none")
            Optional<Episode> released) {}

    @Tag("episode")
    public record Detached(@Inline Episode episode) {}

    @Tag("episodes")
    public record Board(
            @Doc("attached episodes") long attached,
            @Doc("detached episodes") long detached,

            @Doc("how long a detached episode stays resumable")
            long reattachGraceSeconds,

            @Doc("live episodes: attached and detached") List<Listed> episodes,

            @Doc("recently closed episodes with their reason")
            List<Episode> recentlyClosed,

            @Doc("the caller's own episode; null when it holds none")
            Optional<Listed> mine) {}

    public static final ToolSpec<Attach> ATTACH = ToolSpec.change(
            "lomi_session_attach",
            "Attach an episode",
            "workspace.read",
            "-D--",
            Attach.class,
            Attached.class,
            "Opens the execution episode of this conversation, or resumes it (resumed:true). One episode per connection.");

    public static final ToolSpec<Detach> DETACH = ToolSpec.change(
            "lomi_session_detach",
            "Close an episode",
            "workspace.read",
            "-D--",
            Detach.class,
            Detached.class,
            "Closes an episode when the work is done.");

    public static final ToolSpec<NoArguments> LIST = ToolSpec.read(
            "lomi_episodes",
            "List episodes",
            "workspace.read",
            "R-I-",
            NoArguments.class,
            Board.class,
            "The live and recently closed episodes; yours is marked mine.");

    public static final List<ToolSpec<?>> ALL = List.of(ATTACH, DETACH, LIST);
}
