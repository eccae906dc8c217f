package dev.lomicontrol.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The one native validation both processes run: what a declared input accepts and refuses, and with which message. */
class BinderTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    enum Key {
        ENTER,
        CTRL_C,
        @WireName("ArrowUp")
        ARROW_UP
    }

    record Plain(
            WorkspaceId workspaceId,
            @Len(min = 1, max = 4) String name,
            @Range(min = 1, max = 9) @Default("3") int size,
            Optional<Decimal> cursor,
            @Items(max = 2) List<Key> keys) {}

    @Tagged
    sealed interface Change permits Create, Trash {}

    @Tag("create")
    record Create(Token path) implements Change {}

    @Tag("trash")
    record Trash(Token path, boolean force) implements Change {}

    record WithChange(Change operation) {}

    @Untagged
    sealed interface Lookup permits ById, ByKey {}

    record ById(Token id) implements Lookup {}

    record ByKey(Token key, Optional<Token> project) implements Lookup {}

    @External
    sealed interface Target permits Existing, New {}

    @Tag("existing")
    record Existing(Token conversationId) implements Target {}

    @Tag("new")
    record New() implements Target {}

    record WithTarget(Target target) {}

    record Checked(int from, int to) {
        Checked {
            if (to < from) {
                throw new LomiException(ErrorCode.INVALID_ARGUMENT, "to must not be before from");
            }
        }
    }

    @Test
    void nullForAnOptionalFieldMeansAbsentAndDefaultsFillIn() {
        Plain plain = bind(
                Plain.class,
                "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"size\":null,\"cursor\":null,\"keys\":[\"ctrl_c\",\"ArrowUp\"]}");

        assertThat(plain.size()).isEqualTo(3);
        assertThat(plain.cursor()).isEmpty();
        assertThat(plain.keys()).containsExactly(Key.CTRL_C, Key.ARROW_UP);
        assertThat(plain.workspaceId()).isEqualTo(new WorkspaceId("w1"));
    }

    @Test
    void unknownFieldsWrongTypesRangesLengthsAndMissingFieldsAreRefusedNamingThePath() {
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"keys\":[],\"extra\":1}"))
                .startsWith("arguments.extra: unknown field; allowed: workspaceId, name");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"abcde\",\"keys\":[]}"))
                .startsWith("arguments.name: must be 1-4");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"size\":10,\"keys\":[]}"))
                .startsWith("arguments.size: must be from 1 to 9");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"size\":1.5,\"keys\":[]}"))
                .startsWith("arguments.size: must be an integer");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w 1\",\"name\":\"ab\",\"keys\":[]}"))
                .startsWith("arguments.workspaceId: must match [A-Za-z0-9._:-]+");
        assertThat(refusal(Plain.class, "{\"name\":\"ab\",\"keys\":[]}"))
                .isEqualTo("arguments.workspaceId: is required; add it");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"keys\":[\"a\",\"b\",\"c\"]}"))
                .startsWith("arguments.keys: must have 0-2");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"keys\":[\"shift\"]}"))
                .startsWith("arguments.keys[0]: must be one of enter, ctrl_c, ArrowUp");
        assertThat(refusal(Plain.class, "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"keys\":[],\"cursor\":\"01\"}"))
                .startsWith("arguments.cursor: must match 0|[1-9]");
    }

    @Test
    void lengthsCountCodePointsNotUtf16Units() {
        assertThat(bind(
                                Plain.class,
                                "{\"workspaceId\":\"w1\",\"name\":\"\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\",\"keys\":[]}")
                        .name())
                .hasSize(8);
    }

    @Test
    void aTaggedUnionTakesTheVariantItsTagNamesAndRefusesForeignFields() {
        assertThat(bind(WithChange.class, "{\"operation\":{\"type\":\"trash\",\"path\":\"p\",\"force\":true}}")
                        .operation())
                .isEqualTo(new Trash(new Token("p"), true));
        assertThat(refusal(WithChange.class, "{\"operation\":{\"type\":\"create\",\"path\":\"p\",\"force\":true}}"))
                .startsWith("arguments.operation.force: unknown field");
        assertThat(refusal(WithChange.class, "{\"operation\":{\"type\":\"move\"}}"))
                .startsWith("arguments.operation.type: must be one of create, trash");
        assertThat(refusal(WithChange.class, "{\"operation\":{\"path\":\"p\"}}"))
                .startsWith("arguments.operation.type: is required");
    }

    @Test
    void anUntaggedUnionTakesExactlyOneForm() {
        assertThat(bind(Lookup.class, "{\"id\":\"a\"}")).isEqualTo(new ById(new Token("a")));
        assertThat(bind(Lookup.class, "{\"key\":\"k\",\"project\":null}"))
                .isEqualTo(new ByKey(new Token("k"), Optional.empty()));
        assertThat(refusal(Lookup.class, "{\"id\":\"a\",\"key\":\"k\"}"))
                .contains("exactly one of the forms {id} | {key, project?}");
        assertThat(refusal(Lookup.class, "{}")).contains("exactly one of the forms");
        assertThat(refusal(Lookup.class, "{\"project\":\"p\"}")).isEqualTo("arguments.key: is required; add it");
    }

    @Test
    void anExternallyTaggedUnionTakesANameOrAnObjectUnderTheName() {
        assertThat(bind(WithTarget.class, "{\"target\":\"new\"}").target()).isEqualTo(new New());
        assertThat(bind(WithTarget.class, "{\"target\":{\"existing\":{\"conversationId\":\"c1\"}}}")
                        .target())
                .isEqualTo(new Existing(new Token("c1")));
        assertThat(refusal(WithTarget.class, "{\"target\":\"existing\"}"))
                .startsWith("arguments.target: must be one of existing, new");
    }

    @Test
    void aRecordsOwnRuleIsReportedAtItsPath() {
        assertThat(refusal(Checked.class, "{\"from\":2,\"to\":1}")).isEqualTo("arguments: to must not be before from");
    }

    @Test
    void decimalsAreUnsignedLongs() {
        record D(Decimal value) {}
        assertThat(bind(D.class, "{\"value\":\"9223372036854775807\"}").value().asLong())
                .isEqualTo(Long.MAX_VALUE);
        assertThat(refusal(D.class, "{\"value\":\"9223372036854775808\"}"))
                .startsWith("arguments.value: must be at most");
        assertThat(refusal(D.class, "{\"value\":\"-1\"}")).startsWith("arguments.value: must match 0|[1-9]");
    }

    @Test
    void theEncoderWritesWhatTheSchemaPublishes() {
        Plain plain = new Plain(new WorkspaceId("w1"), "ab", 3, Optional.empty(), List.of(Key.ARROW_UP));
        JsonNode encoded = Encoder.encode(plain);

        assertThat(encoded.toString())
                .isEqualTo(
                        "{\"workspaceId\":\"w1\",\"name\":\"ab\",\"size\":3,\"cursor\":null,\"keys\":[\"ArrowUp\"]}");
        assertThat(Encoder.encode(new WithChange(new Create(new Token("p")))).toString())
                .isEqualTo("{\"operation\":{\"type\":\"create\",\"path\":\"p\"}}");
        assertThat(Encoder.encode(new WithTarget(new New())).toString()).isEqualTo("{\"target\":\"new\"}");
        assertThat(bind(Plain.class, encoded.toString())).isEqualTo(plain);
    }

    @Test
    void inputSchemasAreClosedWithNullableOptionalFieldsAndRootUnionsFlattened() {
        JsonNode schema = SchemaWriter.input(Plain.class);
        assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.at("/properties/cursor/type").toString()).isEqualTo("[\"string\",\"null\"]");
        assertThat(schema.at("/properties/size/default").asInt()).isEqualTo(3);
        assertThat(schema.at("/properties/name/maxLength").asInt()).isEqualTo(4);
        assertThat(schema.path("required").toString()).isEqualTo("[\"workspaceId\",\"name\",\"keys\"]");

        record WithKey(Optional<Key> key) {}
        assertThat(SchemaWriter.input(WithKey.class).at("/properties/key/enum").toString())
                .as("a nullable enum allows null")
                .isEqualTo("[\"enter\",\"ctrl_c\",\"ArrowUp\",null]");

        JsonNode lookup = SchemaWriter.input(Lookup.class);
        assertThat(lookup.has("anyOf")).isFalse();
        assertThat(lookup.path("properties").propertyNames()).containsExactly("id", "key", "project");
        assertThat(lookup.has("required")).isFalse();

        JsonNode operation = SchemaWriter.input(WithChange.class).at("/properties/operation");
        assertThat(operation.path("required").toString())
                .as("a tagged union with each field once: the tag at the top")
                .isEqualTo("[\"type\"]");
        JsonNode change = operation.at("/anyOf/1");
        assertThat(change.at("/properties/type/const").asString()).isEqualTo("trash");
        assertThat(change.path("required").toString()).isEqualTo("[\"path\",\"force\"]");
    }

    private static <T> T bind(Class<T> type, String json) {
        return Binder.bind(type, JSON.readTree(json));
    }

    private static String refusal(Class<?> type, String json) {
        try {
            Binder.bind(type, JSON.readTree(json));
        } catch (LomiException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            return e.getMessage();
        }
        throw new AssertionError("accepted " + json);
    }
}
