package dev.lomicontrol.chat.api;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.WireString;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Decimal;
import dev.lomicontrol.tools.Default;
import dev.lomicontrol.tools.Doc;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.LayoutBased;
import dev.lomicontrol.tools.Len;
import dev.lomicontrol.tools.Matches;
import dev.lomicontrol.tools.Range;
import dev.lomicontrol.tools.ScopeNeed;
import dev.lomicontrol.tools.Tag;
import dev.lomicontrol.tools.Tagged;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The Chat AI tools of the reference (conversations explicitly shared with a connection), declared
 * with the reference's inputs; served by the broker's {@code ChatCalls} on the {@code chat} module.
 */
public final class ChatSpecs {

    private ChatSpecs() {}

    /** A conversation, message, request or connection id as the reference's valid_chat_id: 1-100 of A-Za-z0-9-_. */
    @WireString(maxLength = 100, pattern = "[A-Za-z0-9_-]+")
    public record ChatId(String value) {
        @Override
        public String toString() {
            return value;
        }
    }

    // ---------------------------------------------------------------- inputs

    public record ListInput(
            WorkspaceId workspaceId,

            @Range(min = 0, max = 65535) @Default("0") int offset,

            @Range(min = 1, max = 64) @Default("20") int limit,

            @Doc("from page one; required after it") Optional<Token> expectedRevision) {
        public ListInput {
            if (offset != 0 && expectedRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedRevision (the revision of the first page) is required at a nonzero offset");
            }
        }
    }

    /** Which text of a conversation to read (the reference's {@code type} union). */
    @Tagged("type")
    public sealed interface Part {}

    @Tag("draft")
    public record Draft() implements Part {}

    @Tag("message")
    public record Message(@Doc("null = the active leaf") Optional<ChatId> messageId) implements Part {}

    public record ReadInput(
            WorkspaceId workspaceId,
            ChatId conversationId,
            Part part,

            @Range(min = 0, max = 4294967295L) @Default("0") long startUtf16,

            @Range(min = 2, max = 8192) @Default("8192") int maxChars,

            @Doc("from page one; required after it") Optional<Token> expectedRevision,

            @Doc("needs chat.send") @Default("false") boolean includeSendTarget) {
        public ReadInput {
            if (startUtf16 != 0 && expectedRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedRevision (the revision of the first page) is required after the first page");
            }
        }
    }

    public enum Format {
        MARKDOWN,
        JSON
    }

    public record ExportInput(
            WorkspaceId workspaceId,
            ChatId conversationId,
            Format format,
            @Range(min = 0, max = 4294967295L) @Default("0") long startUtf16,

            @Range(min = 2, max = 8192) @Default("8192") int maxChars,

            @Doc("from page one; required after it") Optional<Token> expectedRevision) {
        public ExportInput {
            if (startUtf16 != 0 && expectedRevision.isEmpty()) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT,
                        "expectedRevision (the revision of the first page) is required after the first page");
            }
        }
    }

    /** The conversation to open (the reference's {@code type} union: {@code {type:"existing", conversationId}} or {@code {type:"new"}}). */
    @Tagged("type")
    public sealed interface Target {}

    @Tag("existing")
    public record Existing(ChatId conversationId) implements Target {}

    @Tag("new")
    public record New() implements Target {}

    public record OpenInput(
            WorkspaceId workspaceId,

            @Doc("new also needs chat.create") Target target,

            @Doc("the domainRevision") Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record DraftInput(
            WorkspaceId workspaceId,
            Token panelId,
            ChatId conversationId,

            @Len(max = 32768) String text,

            Token expectedDraftRevision,
            Token expectedConversationRevision,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {
        public DraftInput {
            if (text.getBytes(StandardCharsets.UTF_8).length > 32 * 1024) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "text is more than 32 KiB of UTF-8");
            }
        }
    }

    public record SendInput(
            WorkspaceId workspaceId,
            Token panelId,
            ChatId conversationId,

            @Doc("from lomi_chat_read includeSendTarget") ChatId connectionId,

            @Len(min = 1, max = 256) @Matches(Matches.NO_CONTROLS)
            String model,

            Token expectedDraftRevision,
            Token expectedConversationRevision,
            Decimal expectedRevision,
            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable, LayoutBased {}

    public record StopInput(
            WorkspaceId workspaceId,
            ChatId conversationId,

            ChatId requestId,

            RetryEpochId retryEpoch,
            RequestKey requestKey)
            implements Durable {}

    // ---------------------------------------------------------------- outputs

    public record Summary(
            String conversationId,
            String title,
            String conversationRevision,
            Optional<String> latestMessageId,
            String updatedAtMillis) {}

    @Tag("chat_list")
    public record Listed(
            WorkspaceId workspaceId,
            String revision,
            List<Summary> items,
            int total,
            int offset,
            Optional<Integer> nextOffset) {}

    public record SendTarget(String connectionId, String model, long maxOutputTokens) {}

    public record Request(String requestId, String assistantId, String status) {}

    @Tag("chat_read")
    public record Read(
            WorkspaceId workspaceId,
            Summary conversation,
            @Doc("persisted_checkpoint") String source,
            Part part,
            String revision,
            Optional<String> draftRevision,
            Optional<String> parentMessageId,
            String role,
            String status,
            String content,
            long startUtf16,
            long totalUtf16,
            Optional<Long> nextUtf16,
            boolean attachmentsOmitted,
            boolean nonTextPartsOmitted,
            Optional<SendTarget> sendTarget,
            Optional<Request> request) {}

    @Tag("chat_export")
    public record Exported(
            WorkspaceId workspaceId,
            String conversationId,
            Format format,
            String revision,
            long totalBytes,
            int messageCount,
            String content,
            long startUtf16,
            long totalUtf16,
            Optional<Long> nextUtf16,
            boolean attachmentsOmitted,
            boolean nonTextPartsOmitted) {}

    // ---------------------------------------------------------------- operation results

    @Tag("chat_opened")
    public record Opened(WorkspaceId workspaceId, String panelId, String conversationId, boolean created) {}

    @Tag("chat_draft_updated")
    public record DraftUpdated(
            WorkspaceId workspaceId,
            String panelId,
            String conversationId,
            String draftRevision,
            String conversationRevision,
            String textSha256,
            long totalUtf16) {}

    @Tag("chat_sent")
    public record Sent(
            WorkspaceId workspaceId,
            String panelId,
            String conversationId,
            String requestId,
            String userId,
            String assistantId,
            String connectionId,
            String model,

            @Doc("null: only reserved, not yet accepted by the provider")
            Optional<String> draftRevision,

            @Doc("the error code the send was refused with") Optional<String> rejection) {}

    @Tag("chat_stopped")
    public record Stopped(WorkspaceId workspaceId, String conversationId, Request request, boolean alreadyFinished) {}

    // ---------------------------------------------------------------- the tools

    public static final ToolSpec<ListInput> LIST = ToolSpec.read(
            "lomi_chat_list",
            "List shared chats",
            "chat.read",
            "R-I-",
            ListInput.class,
            Listed.class,
            "The Chat AI conversations shared with you in this project.");

    public static final ToolSpec<ReadInput> READ = ToolSpec.read(
                    "lomi_chat_read",
                    "Read a shared chat",
                    "chat.read",
                    "R-I-",
                    ReadInput.class,
                    Read.class,
                    "Reads a shared conversation's draft or one message, paged.")
            .withVariantScopes(in -> in.includeSendTarget()
                    ? List.of(ScopeNeed.of(
                            "chat.send",
                            "includeSendTarget needs the chat.send scope, which this session was not granted"))
                    : List.of());

    public static final ToolSpec<ExportInput> EXPORT = ToolSpec.read(
            "lomi_chat_export",
            "Export a shared chat",
            "chat.export",
            "R-I-",
            ExportInput.class,
            Exported.class,
            "A shared conversation as one Markdown or JSON document, paged.");

    public static final ToolSpec<OpenInput> OPEN = ToolSpec.operation(
                    "lomi_chat_open",
                    "Open a chat",
                    "chat.open",
                    "--I-",
                    OpenInput.class,
                    Opened.class,
                    "Opens a shared conversation in a panel, or creates one; never sends anything.")
            .withVariantScopes(in -> in.target() instanceof New
                    ? List.of(ScopeNeed.of(
                            "chat.create",
                            "target new needs the chat.create scope, which this session was not granted"))
                    : List.of());

    public static final ToolSpec<DraftInput> DRAFT = ToolSpec.operation(
            "lomi_chat_draft",
            "Replace a chat draft",
            "chat.draft",
            "-DI-",
            DraftInput.class,
            DraftUpdated.class,
            "Replaces the draft of an open shared conversation; never sends.");

    public static final ToolSpec<SendInput> SEND = ToolSpec.operation(
            "lomi_chat_send",
            "Send a chat draft",
            "chat.send",
            "--IO",
            SendInput.class,
            Sent.class,
            "Sends the saved draft to the configured model, once a human approves.");

    public static final ToolSpec<StopInput> STOP = ToolSpec.operation(
            "lomi_chat_stop",
            "Stop a chat request",
            "chat.stop",
            "-DI-",
            StopInput.class,
            Stopped.class,
            "Stops one running request of a shared conversation.");

    public static final List<ToolSpec<?>> ALL = List.of(LIST, READ, EXPORT, OPEN, DRAFT, SEND, STOP);
}
