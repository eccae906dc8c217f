package dev.lomicontrol.projects;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The stored and wire form of tabs: {@code [{tabId, root}]}, root {@code {panelId}} or {@code {split, first, second}}. */
public final class LayoutJson {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private LayoutJson() {}

    static List<Tab> parse(String json) {
        List<Tab> tabs = new ArrayList<>();
        for (JsonNode tab : MAPPER.readTree(json)) {
            tabs.add(new Tab(tab.path("tabId").asString(), pane(tab.path("root"))));
        }
        return tabs;
    }

    static String write(List<Tab> tabs) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Tab tab : tabs) {
            ObjectNode node = array.addObject();
            node.put("tabId", tab.id());
            node.set("root", json(tab.root()));
        }
        return MAPPER.writeValueAsString(array);
    }

    /** A pane tree as JSON, for the wire. */
    public static ObjectNode json(Pane pane) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (pane instanceof Pane.Leaf leaf) {
            node.put("panelId", leaf.panelId());
        } else {
            Pane.Split split = (Pane.Split) pane;
            node.put("split", split.direction());
            node.set("first", json(split.first()));
            node.set("second", json(split.second()));
        }
        return node;
    }

    private static Pane pane(JsonNode node) {
        if (node.has("panelId")) {
            return new Pane.Leaf(node.get("panelId").asString());
        }
        return new Pane.Split(node.path("split").asString(), pane(node.path("first")), pane(node.path("second")));
    }
}
