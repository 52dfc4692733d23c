package jsonv

import (
	"sync"
	"testing"
)

func TestLazyBehavesLikeParsed(t *testing.T) {
	cases := []string{
		`{"b":1,"a":[true,false,null],"10":"x","2":"y"}`,
		`[1,2,{"x":[]},"\ud800"]`,
		`"a string that is long enough to stay lazy until it is read by someone"`,
		`"short"`, `12.50`, `true`, `null`, `{}`, `[]`,
		`{"lines":[{"number":1,"text":"a"},{"number":2,"text":"b\nc"}],"totalLines":1e21}`,
	}
	for _, c := range cases {
		want := MustParse(c)
		got := Lazy(c, true)
		if got.Kind() != want.Kind() || got.IsNull() != want.IsNull() || got.IsArray() != want.IsArray() {
			t.Errorf("%s: kind %v, want %v", c, got.Kind(), want.Kind())
		}
		if !Equal(got, want) || !Equal(want, got) {
			t.Errorf("%s: not Equal", c)
		}
		if Stringify(got) != Stringify(want) || Encode(got) != Encode(want) || got.String() != want.String() {
			t.Errorf("%s: Stringify %s / %s", c, Stringify(got), Stringify(want))
		}
		if got.Len() != want.Len() || got.Str() != want.Str() || got.Truthy() != want.Truthy() {
			t.Errorf("%s: accessors differ", c)
		}
		// Nested in a constructed value.
		wrapped := Obj(M("v", Lazy(c, true)))
		if Stringify(wrapped) != Stringify(Obj(M("v", want))) {
			t.Errorf("%s: nested Stringify differs", c)
		}
		if IsLazy(got) {
			t.Errorf("%s: still lazy after use", c)
		}
	}
}

func TestLazyConcurrent(t *testing.T) {
	v := Lazy(`{"a":[1,2,3],"b":{"c":"d"}}`, true)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v.Get("a").Len() != 3 || v.Path("b", "c").Str() != "d" {
				t.Error("concurrent read differs")
			}
		}()
	}
	wg.Wait()
}

func TestLazyUndecodedUntilUsed(t *testing.T) {
	v := Lazy(`[1,2,3]`, true)
	if !IsLazy(v) || v.Kind() != Array || !IsLazy(v) {
		t.Fatal("Kind should not decode")
	}
	if v.Len() != 3 || IsLazy(v) {
		t.Fatal("Len should decode")
	}
}

func TestDeferredBuiltOnceOnFirstLook(t *testing.T) {
	built := 0
	v := Deferred(Object, func() Value { built++; return MustParse(`{"type":"object","properties":{"a":{"type":"string"}}}`) })
	if v.Kind() != Object || !v.IsObject() || v.IsUndefined() || built != 0 {
		t.Fatalf("asking the kind built it (%d builds)", built)
	}
	if _, ok := RawText(v); ok {
		t.Fatal("a Deferred value has no raw text")
	}
	if v.Path("properties", "a", "type").Str() != "string" || built != 1 {
		t.Fatalf("first look: %d builds", built)
	}
	if Stringify(v) != `{"type":"object","properties":{"a":{"type":"string"}}}` || built != 1 {
		t.Fatalf("Stringify %s after %d builds", Stringify(v), built)
	}
	if !Equal(Obj(M("s", v)), MustParse(`{"s":{"type":"object","properties":{"a":{"type":"string"}}}}`)) {
		t.Fatal("nested Deferred differs")
	}
}

func TestDeferredConcurrent(t *testing.T) {
	var mu sync.Mutex
	built := 0
	v := Deferred(Array, func() Value { mu.Lock(); built++; mu.Unlock(); return MustParse(`[1,2,3]`) })
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v.Len() != 3 {
				t.Error("concurrent read differs")
			}
		}()
	}
	wg.Wait()
	if built != 1 {
		t.Fatalf("built %d times", built)
	}
}

func TestDeferredOfTheWrongKindPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a Deferred object that builds an array did not panic")
		}
	}()
	Deferred(Object, func() Value { return Arr() }).Len()
}
