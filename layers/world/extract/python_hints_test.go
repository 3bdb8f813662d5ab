package extract

import "testing"

// TestPyAnnotType checks the hints annotations give: one class, a class
// itself, the elements of a container, the values of a mapping, and
// nothing for what says no one class (malformed input included).
func TestPyAnnotType(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Client", "Client"},
		{"'models.Client'", "models.Client"},
		{"Optional[Client]", "Client"},
		{"t.Optional[\"Client\"]", "Client"},
		{"Union[Client, None]", "Client"},
		{"Union[Client, Pool]", ""},
		{"Client | None", "Client"},
		{"ClassVar[Client]", "Client"},
		{"type[Client]", "Client!"},
		{"Type[list]", ""},
		{"list[Item]", "Item[]"},
		{"t.List[Item]", "Item[]"},
		{"Iterator[\"Extension\"]", "Extension[]"},
		{"Generator[Item, None, None]", "Item[]"},
		{"tuple[Item, ...]", "Item[]"},
		{"tuple[Item, Pool]", ""},
		{"dict[str, Handler]", "Handler{}"},
		{"Mapping[str, list[Handler]]", ""},
		{"dict[str, dict[str, Handler]]", ""},
		{"list[type[Item]]", "Item![]"},
		{"Optional[list[Item]]", "Item[]"},
		{"dict[str]", ""},
		{"list[]", ""},
		{"[]", ""},
		{"list[Item", ""},
		{"list]Item[", ""},
		{"Callable[[Item], None]", ""},
		{"None", ""},
	} {
		if got := pyAnnotType(c.in); got != c.want {
			t.Errorf("pyAnnotType(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestPyElemHint checks the element of a hint: at once for a container
// the code declares, deferred to the resolver otherwise.
func TestPyElemHint(t *testing.T) {
	for _, c := range []struct{ in, op, want string }{
		{"Item[]", "@i", "Item"},
		{"Item[]", "@v", "Item"},
		{"Handler{}", "@v", "Handler"},
		{"Handler{}", "@i", ""},
		{"Env#items", "@i", "Env#items#@i"},
		{"a#b#c#d#e", "@i", ""},
		{"", "@i", ""},
	} {
		if got := pyElemHint(c.in, c.op); got != c.want {
			t.Errorf("pyElemHint(%q, %q) = %q, want %q", c.in, c.op, got, c.want)
		}
	}
}
