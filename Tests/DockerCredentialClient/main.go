// docker-credential-client: docker-credential-helpers' own Go client package, the code
// Docker's CLI uses to call a credential helper, run against one helper for the tests:
//
//	docker-credential-client HELPER store URL USERNAME SECRET
//	docker-credential-client HELPER get URL      (the credentials as JSON, or "not found")
//	docker-credential-client HELPER erase URL
//	docker-credential-client HELPER list          (the URLs and usernames as JSON)
//
// A failure is printed on standard error with exit status 1.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/docker/docker-credential-helpers/client"
	"github.com/docker/docker-credential-helpers/credentials"
)

func main() {
	if len(os.Args) < 3 {
		fail(fmt.Errorf("usage: %s HELPER store|get|erase|list [ARGUMENTS]", os.Args[0]))
	}
	program := client.NewShellProgramFunc(os.Args[1])
	arguments := os.Args[3:]
	switch {
	case os.Args[2] == "store" && len(arguments) == 3:
		check(client.Store(program, &credentials.Credentials{
			ServerURL: arguments[0], Username: arguments[1], Secret: arguments[2],
		}))
	case os.Args[2] == "get" && len(arguments) == 1:
		found, err := client.Get(program, arguments[0])
		if credentials.IsErrCredentialsNotFound(err) {
			fmt.Println("not found")
			return
		}
		check(err)
		print(found)
	case os.Args[2] == "erase" && len(arguments) == 1:
		check(client.Erase(program, arguments[0]))
	case os.Args[2] == "list" && len(arguments) == 0:
		listed, err := client.List(program)
		check(err)
		print(listed)
	default:
		fail(fmt.Errorf("unknown request %q", os.Args[2:]))
	}
}

func print(value interface{}) {
	encoded, err := json.Marshal(value)
	check(err)
	fmt.Println(string(encoded))
}

func check(err error) {
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
