package com.agentwallet.adapters.http.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

/**
 * The wire's JSON rules in one mapper: snake_case names, no coercion between types (a JSON number
 * is never an amount string, a string never an integer), no null inside an array, unknown fields
 * refused, nulls written.
 */
public final class ApiJson {
    private ApiJson() {
    }

    /** Applies the rules to the server's mapper (after the configuration file was read with it). */
    public static ObjectMapper configure(ObjectMapper mapper) {
        mapper.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .setDefaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL));
        refuse(mapper, LogicalType.Textual, CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Integer, CoercionInputShape.String, CoercionInputShape.EmptyString,
                CoercionInputShape.Float, CoercionInputShape.Boolean);
        refuse(mapper, LogicalType.Boolean, CoercionInputShape.String, CoercionInputShape.EmptyString,
                CoercionInputShape.Integer);
        return mapper;
    }

    private static void refuse(ObjectMapper mapper, LogicalType target, CoercionInputShape... shapes) {
        for (CoercionInputShape shape : shapes) {
            mapper.coercionConfigFor(target).setCoercion(shape, CoercionAction.Fail);
        }
    }
}
