package dev.lomicontrol.tools;

import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON Schema of a record as this package publishes tool outputs (every field required,
 * {@code Optional} = nullable), for documents other than tool answers — the console's
 * {@code --json} output is written with {@link Encoder} from such records and documented by this schema.
 */
public final class RecordSchemas {

    private RecordSchemas() {}

    public static ObjectNode output(Class<? extends Record> type) {
        return SchemaWriter.output(type);
    }
}
