package com.agentwallet.bootstrap;

import com.google.inject.AbstractModule;
import com.google.inject.Singleton;

import java.lang.reflect.Constructor;

/**
 * A module that binds classes of the core and the adapters through their one public constructor.
 * Those modules know nothing of Guice, so their classes carry no {@code @Inject}; a constructor
 * that gains or loses a parameter needs no change to the wiring.
 */
abstract class ConstructorModule extends AbstractModule {

    /** Binds {@code type} to its one public constructor, one instance per injector. */
    protected final <T> void singleton(Class<T> type) {
        bind(type).toConstructor(publicConstructor(type)).in(Singleton.class);
    }

    /** The one public constructor of {@code type}; none or several is a wiring error, reported at once. */
    @SuppressWarnings("unchecked")
    static <T> Constructor<T> publicConstructor(Class<T> type) {
        Constructor<?>[] constructors = type.getConstructors();
        if (constructors.length != 1) {
            throw new IllegalArgumentException(type.getName() + " has " + constructors.length
                    + " public constructors; binding by constructor needs exactly one");
        }
        return (Constructor<T>) constructors[0];
    }
}
