package main

import (
	"fmt"
	"github.com/spf13/cobra"
)

func main() {
	var replicas int
	var namespace string
	var dryRun bool
	var labels []string
	var output string
	root := &cobra.Command{
		Use:   "kubedeploy [flags] MANIFEST...",
		Short: "Deploy manifests to a cluster",
		Long:  "kubedeploy applies Kubernetes manifests to a cluster and waits for the rollout to finish.",
		Args:  cobra.MinimumNArgs(1),
		Run: func(cmd *cobra.Command, args []string) { fmt.Println(args, replicas, namespace, dryRun, labels, output) },
	}
	root.Flags().IntVarP(&replicas, "replicas", "r", 1, "number of replicas to run")
	root.Flags().StringVarP(&namespace, "namespace", "n", "default", "namespace to deploy into")
	root.Flags().BoolVar(&dryRun, "dry-run", false, "print the objects without sending them")
	root.Flags().StringSliceVarP(&labels, "label", "l", nil, "label to add, as key=value (repeatable)")
	root.Flags().StringVarP(&output, "output", "o", "text", "output format: text or json")
	root.Flags().Duration("wait", 0, "how long to wait for the rollout")
	root.AddCommand(&cobra.Command{Use: "status NAME", Short: "Show the rollout status of a deployment", Run: func(*cobra.Command, []string) {}})
	root.AddCommand(&cobra.Command{Use: "rollback NAME", Short: "Roll a deployment back to its previous revision", Run: func(*cobra.Command, []string) {}})
	root.Execute()
}
